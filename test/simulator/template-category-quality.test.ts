/**
 * A template's category moved by the network (src/simulator/templates/category-control.ts): the change is
 * made and posted as a signed `template_category_update` with `previous_category`; a notice a day ahead
 * is posted with `correct_category` and changes nothing; the Graph API then lists the new category, and a
 * template moved to MARKETING fails with 131050 to a user who stopped the business's marketing. Bad input
 * is a 400 naming the field; an unknown template a 404. Its quality rated by the network
 * (quality-control.ts): each new rating is posted as `message_template_quality_update`, a repeat is not.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  eventually,
  type Harness,
  request,
  startHarness,
  statusesOf,
  TOKEN,
  USER,
  VERSION,
} from './harness.ts';
import { createReviewed } from './template-helpers.ts';

const NOTE = {
  name: 'delivery_note',
  language: 'en',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your order {{1}} is on its way.', example: { body_text: [['A-17']] } }],
};

describe("a template's category, moved by the network", () => {
  let h: Harness;
  let id: string;
  const move = (body: unknown, template = id) =>
    request(`${h.base}/templates/${template}/category`, { method: 'POST', body });
  const categoryHooks = () =>
    h.receiver.received.filter((hook) => hook.json.entry[0].changes[0].field === 'template_category_update');

  before(async () => {
    h = await startHarness();
    ({ id } = await createReviewed(h, NOTE));
  });
  after(() => h.close());

  test('a notice changes nothing; the change is made, posted and listed', async () => {
    const noticed = await move({ category: 'MARKETING', notice: true });
    assert.equal(noticed.status, 200, JSON.stringify(noticed.body));
    assert.equal(noticed.body.category, 'UTILITY');
    const moved = await move({ category: 'MARKETING' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.category, 'MARKETING');

    const [notice, change] = await eventually(() => categoryHooks().length === 2 && categoryHooks());
    for (const hook of [notice!, change!]) assertSigned(hook);
    const named = {
      message_template_id: Number(id),
      message_template_name: 'delivery_note',
      message_template_language: 'en',
    };
    const noticeValue = notice!.json.entry[0].changes[0].value;
    assert.ok(Number.isSafeInteger(noticeValue.category_update_timestamp));
    assert.deepEqual(
      { ...noticeValue, category_update_timestamp: undefined },
      {
        ...named,
        correct_category: 'MARKETING',
        new_category: 'UTILITY',
        category_update_timestamp: undefined,
      },
    );
    assert.deepEqual(change!.json.entry[0].changes[0].value, {
      ...named,
      previous_category: 'UTILITY',
      new_category: 'MARKETING',
    });
    assert.ok(Number.isSafeInteger(change!.json.entry[0].time));

    const listed = await request(`${h.base}/${VERSION}/${BUSINESS}/message_templates?name=delivery_note`, {
      token: TOKEN,
    });
    assert.equal(listed.body.data[0].category, 'MARKETING');
  });

  test('a template moved to MARKETING fails with 131050 to a user who stopped marketing', async () => {
    const stop = await request(`${h.base}/users/${USER}/marketing`, {
      method: 'PUT',
      body: { business: BUSINESS, stopped: true },
    });
    assert.equal(stop.status, 200);
    const sent = await request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
      token: TOKEN,
      body: {
        messaging_product: 'whatsapp',
        to: USER,
        type: 'template',
        template: {
          name: 'delivery_note',
          language: { code: 'en' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-17' }] }],
        },
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const wamid: string = sent.body.messages[0].id;
    const [failed] = await eventually(() => statusesOf(h, wamid).length > 0 && statusesOf(h, wamid));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.errors[0].code, 131050);
  });

  test('each new quality rating is posted with the previous one; the same rating again is not', async () => {
    const rate = (body: unknown) => request(`${h.base}/templates/${id}/quality`, { method: 'POST', body });
    const hooks = () =>
      h.receiver.received.filter(
        (hook) => hook.json.entry[0].changes[0].field === 'message_template_quality_update',
      );
    for (const score of ['YELLOW', 'YELLOW', 'RED']) {
      const r = await rate({ score });
      assert.deepEqual(r.body, { id, score });
    }
    const posted = await eventually(() => hooks().length === 2 && hooks());
    for (const hook of posted) assertSigned(hook);
    assert.deepEqual(
      posted.map((hook) => hook.json.entry[0].changes[0].value),
      [
        {
          previous_quality_score: 'UNKNOWN',
          new_quality_score: 'YELLOW',
          message_template_id: Number(id),
          message_template_name: 'delivery_note',
          message_template_language: 'en',
        },
        {
          previous_quality_score: 'YELLOW',
          new_quality_score: 'RED',
          message_template_id: Number(id),
          message_template_name: 'delivery_note',
          message_template_language: 'en',
        },
      ],
    );
    const bad = await rate({ score: 'BLUE' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /`score` must be GREEN, YELLOW or RED/);
    const unknown = await request(`${h.base}/templates/1234567890/quality`, {
      method: 'POST',
      body: { score: 'RED' },
    });
    assert.equal(unknown.status, 404);
  });

  test('bad input is a 400 naming the field; an unknown template is a 404', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /`category` must be MARKETING or UTILITY/],
      [{ category: 'AUTHENTICATION' }, /`category` must be MARKETING or UTILITY/],
      [{ category: 'UTILITY', notice: 'yes' }, /`notice` must be true or false/],
      [{ category: 'MARKETING' }, /`category`: the template is MARKETING already/],
    ];
    for (const [body, message] of cases) {
      const r = await move(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, message, JSON.stringify(body));
    }
    assert.equal((await move({ category: 'UTILITY' }, '1234567890')).status, 404);
  });
});
