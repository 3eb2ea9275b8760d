/** The simulated Graph API's send endpoint over real HTTP: success shape, statuses, auth, object ids. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  openWindow,
  request,
  startHarness,
  statusesOf,
  TOKEN,
  threeStatusesOf,
  USER,
  VERSION,
} from './harness.ts';

describe('simulated Graph API: sending', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await openWindow(h);
  });
  after(() => h.close());

  test('a text send answers 200 in Meta shape with a wamid', async () => {
    const r = await graphSend(h, { type: 'text', text: { body: 'Hello' } }, `+${USER}`);
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['messaging_product', 'contacts', 'messages']);
    assert.equal(r.body.messaging_product, 'whatsapp');
    assert.deepEqual(r.body.contacts, [{ input: `+${USER}`, wa_id: USER }]);
    assert.equal(r.body.messages.length, 1);
    assert.match(r.body.messages[0].id, /^wamid\.[A-Za-z0-9_=-]+$/);
  });

  test('statuses arrive signed and in order: sent, delivered, read', async () => {
    const r = await graphSend(h, {
      type: 'text',
      text: { body: 'Track me' },
      biz_opaque_callback_data: 'order-42',
    });
    const id = r.body.messages[0].id;
    const statuses = await threeStatusesOf(h, id);
    assert.deepEqual(
      statuses.map((s) => s.status),
      ['sent', 'delivered', 'read'],
    );
    for (const s of statuses) {
      assert.equal(s.recipient_id, USER);
      assert.match(s.timestamp, /^\d{10}$/);
      assert.equal(s.biz_opaque_callback_data, 'order-42');
      assert.equal(s.pricing.pricing_model, 'PMP');
      assert.equal(s.conversation.origin.type, 'service');
    }
    assert.match(statuses[0].conversation.expiration_timestamp, /^\d{10}$/);
    const hooks = h.receiver.received.filter((hook) => hook.body.includes(id));
    for (const hook of hooks) {
      assertSigned(hook);
      assert.equal(hook.json.object, 'whatsapp_business_account');
      const entry = hook.json.entry[0];
      // Each number is its own WABA: the WABA id is the phone-number id.
      assert.equal(entry.id, BUSINESS);
      assert.equal(entry.changes[0].field, 'messages');
      assert.deepEqual(entry.changes[0].value.metadata, {
        display_phone_number: BUSINESS,
        phone_number_id: BUSINESS,
      });
      assert.equal(entry.changes[0].value.messaging_product, 'whatsapp');
    }
  });

  test('biz_opaque_callback_data comes back exactly as sent in every status: failed, and after a held send', async () => {
    // 512 characters (the limit, counted as Meta does), with quotes, escapes and characters beyond ASCII.
    const tag = `msg_01JD\u00e9"\\/<&>\u{1F642}${'x'.repeat(496)}`;
    assert.equal([...tag].length, 512);
    const tooLong = await graphSend(h, {
      type: 'text',
      text: { body: 'x' },
      biz_opaque_callback_data: `${tag}y`,
    });
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error.code, 131009);
    assert.match(tooLong.body.error.error_data.details, /biz_opaque_callback_data/);

    // A user who never wrote: the network takes the send, then reports it failed (131047).
    const stranger = '254712345699';
    const failedSend = await graphSend(
      h,
      { type: 'text', text: { body: 'x' }, biz_opaque_callback_data: tag },
      stranger,
    );
    assert.equal(failedSend.status, 200);
    const [failed] = await eventually(() => {
      const s = statusesOf(h, failedSend.body.messages[0].id);
      return s.length === 1 ? s : undefined;
    });
    assert.equal(failed.status, 'failed');
    assert.equal(failed.biz_opaque_callback_data, tag);

    // A send the network holds past its client's timeout still reports under the tag it carried.
    assert.equal(
      (await request(`${h.base}/faults`, { method: 'POST', body: { timeout: true } })).status,
      200,
    );
    const held = graphSend(h, { type: 'text', text: { body: 'held' }, biz_opaque_callback_data: tag });
    await eventually(async () => (await request(`${h.base}/faults`)).body.held === 1);
    assert.equal((await request(`${h.base}/faults`, { method: 'DELETE' })).status, 200);
    const id = (await held).body.messages[0].id;
    const statuses = await threeStatusesOf(h, id);
    for (const s of statuses) assert.equal(s.biz_opaque_callback_data, tag);
  });

  test('a wrong token is refused with 401 and code 190, a missing one with code 104', async () => {
    for (const [token, code] of [
      [null, 104],
      ['wrong-token', 190],
    ] as const) {
      const r = await graphSend(h, { type: 'text', text: { body: 'x' } }, USER, token);
      assert.equal(r.status, 401);
      assert.equal(r.body.error.code, code);
      assert.equal(r.body.error.type, 'OAuthException');
      assert.equal(typeof r.body.error.fbtrace_id, 'string');
    }
  });

  test('a phone-number id that is not a number is an unknown object (100, subcode 33)', async () => {
    const r = await request(`${h.base}/${VERSION}/12345/messages`, {
      body: { messaging_product: 'whatsapp', to: USER, type: 'text', text: { body: 'x' } },
      token: TOKEN,
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 100);
    assert.equal(r.body.error.error_subcode, 33);
    assert.equal(r.body.error.type, 'GraphMethodException');
    assert.match(r.body.error.message, /Object with ID '12345' does not exist/);
  });

  test('GET on a business id describes the number and its business account; fields= picks', async () => {
    const r = await request(`${h.base}/${VERSION}/${BUSINESS}`, { token: TOKEN });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), [
      'currency',
      'display_phone_number',
      'id',
      'message_template_namespace',
      'name',
      'quality_rating',
      'timezone_id',
      'verified_name',
    ]);
    assert.equal(r.body.display_phone_number, BUSINESS);
    assert.equal(r.body.id, BUSINESS);
    assert.match(r.body.message_template_namespace, /^[0-9a-f]{8}(_[0-9a-f]{4}){3}_[0-9a-f]{12}$/);
    const again = await request(`${h.base}/${VERSION}/${BUSINESS}`, { token: TOKEN });
    assert.equal(again.body.message_template_namespace, r.body.message_template_namespace, 'stable');
    const picked = await request(`${h.base}/${VERSION}/${BUSINESS}?fields=name,timezone_id`, {
      token: TOKEN,
    });
    assert.deepEqual(picked.body, { id: BUSINESS, name: 'Simulated Business', timezone_id: '1' });
    assert.equal((await request(`${h.base}/${VERSION}/${BUSINESS}`, { token: 'nope' })).status, 401);
  });

  test('mark as read answers success', async () => {
    const r = await graphSend(h, { status: 'read', message_id: 'wamid.ABC' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { success: true });
  });

  test('sending to the business number itself is 131021', async () => {
    const r = await graphSend(h, { type: 'text', text: { body: 'me' } }, BUSINESS);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 131021);
  });

  test('an invalid recipient is code 100 naming `to`', async () => {
    const r = await graphSend(h, { type: 'text', text: { body: 'x' } }, '12');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 100);
    assert.match(r.body.error.error_data.details, /'to'/);
  });

  test('a key the Cloud API does not have is refused, naming it and its object (100)', async () => {
    for (const [message, key, param] of [
      [{ type: 'text', text: { body: 'x', previewUrl: true } }, 'previewUrl', 'text'],
      [{ type: 'image', image: { link: 'https://example.com/a.png', alt: 'a' } }, 'alt', 'image'],
      [{ type: 'location', location: { latitude: 1, longitude: 2, label: 'x' } }, 'label', 'location'],
      [
        { type: 'template', template: { name: 'n', language: { code: 'en', policystring: 'x' } } },
        'policystring',
        'template.language',
      ],
    ] as const) {
      const r = await graphSend(h, message);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 100);
      assert.equal(r.body.error.error_data.details, `Unexpected key "${key}" on param "${param}".`);
    }
  });

  test('templates are not simulated yet: 132001', async () => {
    const r = await graphSend(h, {
      type: 'template',
      template: { name: 'order_update', language: { code: 'en_US' } },
    });
    assert.equal(r.body.error.code, 132001);
    assert.match(r.body.error.error_data.details, /order_update/);
  });

  test('a body that is not JSON is a Graph error, not a framework error', async () => {
    const r = await request(`${h.base}/${VERSION}/${BUSINESS}/messages`, { body: '{not json', token: TOKEN });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 100);
  });

  test('an unknown API version is refused', async () => {
    const r = await request(`${h.base}/latest/${BUSINESS}`, { token: TOKEN });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 2500);
  });
});
