/**
 * A user who stopped a business's marketing (src/simulator/marketing-stops.ts): the network still takes a
 * MARKETING template to them (200, a message id) but posts a single `failed` status with 131050 and the
 * phone shows nothing; utility templates and service messages still arrive; the setting is per business
 * number, cleared as it is set, each change is told to the business as a signed `user_preferences`
 * webhook (a repeat is not), and bad input is a 400 naming the field.
 */
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
  USER,
  VERSION,
} from './harness.ts';
import { createReviewed, createTemplate } from './template-helpers.ts';

const OTHER_BUSINESS = '14155550111';

const template = (name: string, category: string, text: string) => ({
  name,
  language: 'en',
  category,
  components: [{ type: 'BODY', text, example: { body_text: [['Jane']] } }],
});
const SALE = template('summer_sale', 'MARKETING', 'Hi {{1}}, our summer sale starts today.');
const SHIPPED = template('order_shipped', 'UTILITY', 'Your order {{1}} ships today.');

/** A send of template `name` with its one body parameter, as the business (or another one). */
function sendTemplate(h: Harness, name: string, extra: Record<string, unknown> = {}, business = BUSINESS) {
  return request(`${h.base}/${VERSION}/${business}/messages`, {
    token: TOKEN,
    body: {
      messaging_product: 'whatsapp',
      to: USER,
      type: 'template',
      template: {
        name,
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Jane' }] }],
      },
      ...extra,
    },
  });
}

function setMarketing(h: Harness, body: unknown, user = USER) {
  return request(`${h.base}/users/${user}/marketing`, { method: 'PUT', body });
}

/** The ids of what the phone received (from any business) and of its chat with BUSINESS. */
async function onPhone(h: Harness): Promise<string[]> {
  const inbox = await request(`${h.base}/users/${USER}/messages`);
  const chat = await request(`${h.base}/users/${USER}/chat?with=${BUSINESS}`);
  return [...inbox.body.messages, ...chat.body.messages].map((m: { id: string }) => m.id);
}

/** Sends and waits until the message is read on the phone (its last status webhook came). */
async function readOnPhone(h: Harness, sent: Promise<{ status: number; body: any }>) {
  const r = await sent;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const id: string = r.body.messages[0].id;
  await eventually(() => statusesOf(h, id).some((s) => s.status === 'read'));
  assert.deepEqual(
    statusesOf(h, id).map((s) => s.status),
    ['sent', 'delivered', 'read'],
  );
  return id;
}

describe('a user who stopped a business’s marketing', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await createReviewed(h, SALE);
    await createReviewed(h, SHIPPED);
    const other = await createTemplate(h, SALE, OTHER_BUSINESS);
    assert.equal(other.status, 200, JSON.stringify(other.body));
    const decided = await request(`${h.base}/templates/${other.body.id}/review`, { body: {} });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
  });
  after(() => h.close());

  test('a marketing template is taken, then fails with 131050 alone, and never reaches the phone', async () => {
    const set = await setMarketing(h, { business: '+1 415 555 0100', stopped: true });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { business: BUSINESS, stopped: true });
    const read = await request(`${h.base}/users/${USER}/marketing?business=%2B${BUSINESS}`);
    assert.deepEqual(read.body, { business: BUSINESS, stopped: true });

    const sent = await sendTemplate(h, 'summer_sale', { biz_opaque_callback_data: 'campaign-7' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.contacts, [{ input: USER, wa_id: USER }]);
    const id: string = sent.body.messages[0].id;
    assert.match(id, /^wamid\./);

    const [failed] = await eventually(() => statusesOf(h, id).length > 0 && statusesOf(h, id));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.recipient_id, USER);
    assert.equal(failed.biz_opaque_callback_data, 'campaign-7');
    assert.equal(failed.conversation, undefined);
    assert.equal(failed.pricing, undefined);
    const title =
      'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.';
    assert.equal(failed.errors.length, 1);
    const [error] = failed.errors;
    assert.deepEqual(
      { ...error, error_data: undefined },
      {
        code: 131050,
        title,
        message: title,
        error_data: undefined,
        href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
      },
    );
    assert.match(error.error_data.details, /stop receiving marketing messages/);
    assert.ok(!(await onPhone(h)).includes(id), 'the phone shows nothing of it');

    // A utility template and a service message still arrive; by the time they are read (sent later, due
    // later) any further status of the marketing message would have come too.
    const utility = await readOnPhone(h, sendTemplate(h, 'order_shipped'));
    await openWindow(h);
    const text = await readOnPhone(h, graphSend(h, { type: 'text', text: { body: 'Your parcel is here' } }));
    assert.ok((await onPhone(h)).includes(utility));
    assert.ok((await onPhone(h)).includes(text));
    assert.deepEqual(
      statusesOf(h, id).map((s) => s.status),
      ['failed'],
    );
  });

  test('the setting is per business number: another number’s marketing still arrives', async () => {
    assert.equal((await setMarketing(h, { business: BUSINESS, stopped: true })).status, 200);
    await readOnPhone(h, sendTemplate(h, 'summer_sale', {}, OTHER_BUSINESS));
    const other = await request(`${h.base}/users/${USER}/marketing?business=${OTHER_BUSINESS}`);
    assert.deepEqual(other.body, { business: OTHER_BUSINESS, stopped: false });
  });

  test('clearing the setting restores delivery', async () => {
    assert.equal((await setMarketing(h, { business: BUSINESS, stopped: true })).status, 200);
    const cleared = await setMarketing(h, { business: BUSINESS, stopped: false });
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.body, { business: BUSINESS, stopped: false });
    // Clearing what is not set is no error.
    assert.equal((await setMarketing(h, { business: BUSINESS, stopped: false })).status, 200);
    const id = await readOnPhone(h, sendTemplate(h, 'summer_sale'));
    assert.ok((await onPhone(h)).includes(id));
  });

  test('each change is told to the business as a user_preferences webhook; a repeat is not', async () => {
    const user = '447911000333';
    const preferencesOf = () =>
      h.receiver.received.filter((hook) => {
        const change = hook.json.entry[0].changes[0];
        return change.field === 'user_preferences' && change.value.user_preferences[0].wa_id === user;
      });
    for (const stopped of [true, true, false, false, true])
      assert.equal((await setMarketing(h, { business: BUSINESS, stopped }, user)).status, 200);
    const hooks = await eventually(() => preferencesOf().length === 3 && preferencesOf());
    for (const hook of hooks) assertSigned(hook);
    const [first] = hooks;
    const value = first!.json.entry[0].changes[0].value;
    assert.deepEqual(value.metadata, { display_phone_number: BUSINESS, phone_number_id: BUSINESS });
    assert.equal(value.contacts[0].wa_id, user);
    assert.match(value.contacts[0].user_id, /^[A-Z]{2}\./, 'the business-scoped id beside the number');
    const { timestamp, ...item } = value.user_preferences[0];
    assert.ok(Number.isSafeInteger(timestamp), 'an integer, as Meta sends it');
    assert.deepEqual(item, {
      wa_id: user,
      detail: 'User requested to stop marketing messages',
      category: 'marketing_messages',
      value: 'stop',
    });
    assert.deepEqual(
      hooks.map((hook) => hook.json.entry[0].changes[0].value.user_preferences[0].value),
      ['stop', 'resume', 'stop'],
    );
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: [unknown, RegExp, string?][] = [
      [{ stopped: true }, /`business` must be the business number/],
      [{ business: 'abc', stopped: true }, /`business` must be the business number/],
      [{ business: USER, stopped: true }, /`business` must not be the phone itself/],
      [{ business: BUSINESS }, /`stopped` must be true or false/],
      [{ business: BUSINESS, stopped: 'yes' }, /`stopped` must be true or false/],
      [[1], /the body must be a JSON object/],
      ['{"business":', /the body could not be read/],
      [{ business: BUSINESS, stopped: true }, /`phone` in the path/, '12'],
    ];
    for (const [body, message, user] of cases) {
      const r = await setMarketing(h, body, user);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, message, JSON.stringify(body));
    }
    const noBusiness = await request(`${h.base}/users/${USER}/marketing`);
    assert.equal(noBusiness.status, 400);
    assert.match(noBusiness.body.error.message, /`business` must be the business number/);
  });
});
