/**
 * A business number whose WhatsApp Business Account may not start conversations
 * (src/simulator/account-restrictions.ts): the restriction is posted as Meta's signed `account_update`,
 * the number's templates are refused with 368 (HTTP 403) while replies inside a window still go, it ends
 * at its expiration or when lifted, it survives a restart, and bad input is a 400 naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  memoryStore,
  openWindow,
  request,
  startHarness,
} from './harness.ts';
import { createReviewed } from './template-helpers.ts';

const NOTICE = {
  name: 'store_notice',
  language: 'en',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Our store opens at nine tomorrow.' }],
};
const sendNotice = (h: Harness) =>
  graphSend(h, { type: 'template', template: { name: 'store_notice', language: { code: 'en' } } });

describe('a number whose business account may not start conversations', () => {
  let h: Harness;
  let state: ReturnType<typeof memoryStore>;
  let now = Date.UTC(2026, 10, 26, 12);
  const restrict = (body: unknown) =>
    request(`${h.base}/numbers/${BUSINESS}/restriction`, { method: 'PUT', body });
  const restrictionHooks = () =>
    h.receiver.received.filter((hook) => hook.json.entry[0].changes[0].field === 'account_update');

  before(async () => {
    state = memoryStore();
    h = await startHarness({ state: state.store, now: () => now });
    await createReviewed(h, NOTICE);
  });
  after(() => h.close());

  test('restricted: posted as account_update; templates refused with 368, replies in a window still go', async () => {
    assert.equal((await sendNotice(h)).status, 200, 'a template goes before');
    const until = new Date(now + 3_600_000).toISOString();
    const set = await restrict({ restricted: true, until });
    assert.deepEqual(set.body, { restricted: true, until });
    const [hook] = await eventually(() => restrictionHooks().length === 1 && restrictionHooks());
    assertSigned(hook!);
    const entry = hook!.json.entry[0];
    assert.equal(entry.id, BUSINESS, 'each number is its own WABA here');
    assert.ok(Number.isSafeInteger(entry.time));
    assert.deepEqual(entry.changes[0].value, {
      event: 'ACCOUNT_RESTRICTION',
      restriction_info: [{ restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: until }],
    });

    const refused = await sendNotice(h);
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 368);
    assert.equal(refused.body.error.message, '(#368) Temporarily blocked for policies violations');
    await openWindow(h);
    const reply = await graphSend(h, { type: 'text', text: { body: 'We open at nine.' } });
    assert.equal(reply.status, 200, 'a reply inside the window is not business-initiated');
    assert.deepEqual((await request(`${h.base}/numbers/${BUSINESS}/restriction`)).body, {
      restricted: true,
      until,
    });
  });

  test('it survives a restart, and ends at its expiration', async () => {
    await h.close();
    h = await startHarness({ state: memoryStore(state.snapshot()).store, now: () => now });
    assert.equal((await sendNotice(h)).status, 403, 'still restricted after the restart');
    now += 3_600_001;
    assert.deepEqual((await request(`${h.base}/numbers/${BUSINESS}/restriction`)).body, {
      restricted: false,
      until: null,
    });
    assert.equal((await sendNotice(h)).status, 200);
  });

  test('lifted by hand, with nothing posted; bad input is a 400 naming the field', async () => {
    const before = restrictionHooks().length;
    assert.equal((await restrict({ restricted: true })).status, 200);
    assert.equal((await sendNotice(h)).status, 403);
    assert.deepEqual((await restrict({ restricted: false })).body, { restricted: false, until: null });
    assert.equal((await sendNotice(h)).status, 200);
    // A fence: a restriction posts through the one queue of the number's account changes, in order, so
    // once it has arrived, whatever the lift could have posted before it has arrived too.
    const fence = new Date(now + 7_200_000).toISOString();
    assert.equal((await restrict({ restricted: true, until: fence })).status, 200);
    const expirationOf = (hook: { json: any }) =>
      hook.json.entry[0].changes[0].value.restriction_info[0].expiration;
    await eventually(() => restrictionHooks().some((hook) => expirationOf(hook) === fence));
    assert.equal(restrictionHooks().length, before + 2, 'a lift posts nothing');
    assert.deepEqual((await restrict({ restricted: false })).body, { restricted: false, until: null });
    const cases: [unknown, RegExp][] = [
      [{}, /`restricted` must be true or false/],
      [{ restricted: 'yes' }, /`restricted` must be true or false/],
      [{ restricted: true, until: 'tomorrow' }, /`until` must be a time in the future/],
      [
        { restricted: true, until: new Date(now - 1000).toISOString() },
        /`until` must be a time in the future/,
      ],
      [{ restricted: false, until: new Date(now + 1000).toISOString() }, /with `"restricted": true`/],
      [{ restricted: true, reason: 'x' }, /`reason` is not a field here/],
    ];
    for (const [body, message] of cases) {
      const r = await restrict(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, message, JSON.stringify(body));
    }
  });
});
