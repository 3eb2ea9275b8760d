/**
 * A business number's messaging limit and its quality announcements (src/simulator/messaging-limits.ts,
 * src/simulator/routes-numbers.ts): with a limit of 250, templates reach 250 new users outside their
 * window; the 251st is taken (200, a message id) but only gets a `failed` status with 131064 and its
 * phone shows nothing; users already reached, and users who wrote first, still get templates; the limit
 * and the users reached survive a restart and free up 24 hours later. `POST /numbers/:phone/quality`
 * posts Meta's signed `phone_number_quality_update` webhook and may set the limit. The controls are
 * behind the simulator token when it is private.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  eventually,
  type Harness,
  memoryStore,
  openWindow,
  request,
  startHarness,
  statusesOf,
  TOKEN,
  VERSION,
} from './harness.ts';
import { createReviewed } from './template-helpers.ts';

const DAY_MS = 24 * 3600 * 1000;
const NOTICE = {
  name: 'order_notice',
  language: 'en',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Your order {{1}} ships today.', example: { body_text: [['A-1']] } }],
};
/** Distinct valid numbers (Kenyan mobiles), none of them BUSINESS. */
const userNumber = (i: number) => `2547${String(20_000_000 + i)}`;
const WROTE_FIRST = userNumber(9000);
const TITLE = 'Messaging limit reached';
const DETAILS =
  'Message failed to send because this business reached its messaging limit: 250 unique users outside a customer service window in a moving 24 hours.';

function sendNotice(h: Harness, to: string) {
  return request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
    token: TOKEN,
    body: {
      messaging_product: 'whatsapp',
      to,
      type: 'template',
      template: {
        name: 'order_notice',
        language: { code: 'en' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }],
      },
    },
  });
}

/** Sends the template to each user, some at a time; answers the message ids in the users' order. */
async function sendToAll(h: Harness, users: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < users.length; i += 25) {
    const answers = await Promise.all(users.slice(i, i + 25).map((u) => sendNotice(h, u)));
    for (const r of answers) {
      assert.equal(r.status, 200, JSON.stringify(r.body));
      ids.push(r.body.messages[0].id);
    }
  }
  return ids;
}

const limitPath = (h: Harness, phone = BUSINESS) => `${h.base}/numbers/${phone}/messaging-limit`;
const readLimit = async (h: Harness) => (await request(limitPath(h))).body;
const phoneOf = async (h: Harness, user: string) =>
  (await request(`${h.base}/users/${user}/messages`)).body.messages as { id: string; status: string }[];

/** Waits for the message's `delivered` status and checks it is on the user's phone. */
async function assertDelivered(h: Harness, user: string, id: string) {
  await eventually(() => statusesOf(h, id).some((s) => s.status === 'delivered'));
  assert.ok(!statusesOf(h, id).some((s) => s.status === 'failed'));
  assert.ok((await phoneOf(h, user)).some((m) => m.id === id && m.status !== 'failed'));
}

/** Waits for the message's one status, `failed` with the messaging limit's error; the phone has nothing. */
async function assertRefused(h: Harness, user: string, id: string) {
  const [failed] = await eventually(() => statusesOf(h, id).length > 0 && statusesOf(h, id));
  assert.equal(failed.status, 'failed');
  assert.equal(failed.recipient_id, user);
  assert.equal(failed.conversation, undefined);
  assert.deepEqual(failed.errors, [
    {
      code: 131064,
      title: TITLE,
      message: TITLE,
      error_data: { details: DETAILS },
      href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
    },
  ]);
  assert.deepEqual(await phoneOf(h, user), []);
}

describe('the messaging limit of a business number', () => {
  let shift = 0;
  const now = () => Date.now() + shift;
  const kept = memoryStore();
  const reached = Array.from({ length: 250 }, (_, i) => userNumber(i));
  const oneTooMany = userNumber(250);
  let h: Harness;
  let restarted: Harness | undefined;
  before(async () => {
    h = await startHarness({ state: kept.store, now, maxSendsPerSecond: 0, autoRead: false });
    await createReviewed(h, NOTICE);
  });
  after(async () => {
    await h.close();
    await restarted?.close();
  });

  test('is unlimited by default and takes only Meta’s limits, naming the field otherwise', async () => {
    assert.deepEqual(await readLimit(h), { limit: 'unlimited', used: 0 });
    for (const [body, message] of [
      [{ limit: 50 }, /^`limit` must be one of 250, 1000, 2000, 10000, 100000 or "unlimited"/],
      [{ limit: '250' }, /^`limit` must be one of/],
      [{}, /^`limit` must be one of/],
      [{ limit: 250, tier: 'TIER_250' }, /^`tier` is not a field here/],
      [[250], /^the body must be a JSON object/],
    ] as const) {
      const r = await request(limitPath(h), { method: 'PUT', body });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error.message, message);
    }
    const badPhone = await request(limitPath(h, 'not-a-number'), { method: 'PUT', body: { limit: 250 } });
    assert.equal(badPhone.status, 400);
    assert.match(badPhone.body.error.message, /^`phone` in the path/);
    const set = await request(limitPath(h, `+${BUSINESS}`), { method: 'PUT', body: { limit: 250 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.deepEqual(set.body, { limit: 250, used: 0 });
    assert.deepEqual(await readLimit(h), { limit: 250, used: 0 });
  });

  test('a user who wrote first is not counted: the window is open', async () => {
    await openWindow(h, WROTE_FIRST);
    const [id] = await sendToAll(h, [WROTE_FIRST]);
    await assertDelivered(h, WROTE_FIRST, id as string);
    assert.deepEqual(await readLimit(h), { limit: 250, used: 0 });
  });

  test('250 new users get the template; the 251st is taken but fails with 131064 and gets nothing', async () => {
    const ids = await sendToAll(h, reached);
    assert.deepEqual(await readLimit(h), { limit: 250, used: 250 });
    const [refused] = await sendToAll(h, [oneTooMany]);
    assert.match(refused as string, /^wamid\./);
    await assertRefused(h, oneTooMany, refused as string);
    for (const [i, id] of ids.entries()) await assertDelivered(h, reached[i] as string, id);
    assert.deepEqual(await readLimit(h), { limit: 250, used: 250 });
  });

  test('users already reached, and users whose window is open, still get templates past the limit', async () => {
    const [again, windowed] = await sendToAll(h, [reached[0] as string, WROTE_FIRST]);
    await assertDelivered(h, reached[0] as string, again as string);
    await assertDelivered(h, WROTE_FIRST, windowed as string);
    assert.deepEqual(await readLimit(h), { limit: 250, used: 250 });
  });

  test('a restart keeps the limit and the users reached', async () => {
    // Every change an answer reported was written before that answer: this is what a kill -9 leaves.
    restarted = await startHarness({ state: memoryStore(kept.snapshot()).store, now, maxSendsPerSecond: 0 });
    const b = restarted;
    assert.deepEqual(await readLimit(b), { limit: 250, used: 250 });
    const [refused, again] = await sendToAll(b, [userNumber(251), reached[1] as string]);
    await assertRefused(b, userNumber(251), refused as string);
    await assertDelivered(b, reached[1] as string, again as string);
  });

  test('24 hours after, the users reached no longer count', async () => {
    const b = restarted as Harness;
    shift += DAY_MS;
    assert.deepEqual(await readLimit(b), { limit: 250, used: 0 });
    const [id] = await sendToAll(b, [oneTooMany]);
    await assertDelivered(b, oneTooMany, id as string);
    assert.deepEqual(await readLimit(b), { limit: 250, used: 1 });
  });
});

/** The `phone_number_quality_update` webhooks received so far. */
const qualityHooks = (h: Harness) =>
  h.receiver.received.filter((hook) => hook.json.entry[0].changes[0].field === 'phone_number_quality_update');

describe('quality and limit changes, announced', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const announce = (body: unknown, phone = BUSINESS) =>
    request(`${h.base}/numbers/${phone}/quality`, { method: 'POST', body });

  test('posts Meta’s signed webhook, and a currentLimit sets the messaging limit', async () => {
    const r = await announce({ event: 'DOWNGRADE', currentLimit: 'TIER_250' });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.deepEqual(r.body, { posted: true });
    const hook = await eventually(() => qualityHooks(h)[0]);
    assertSigned(hook);
    const { entry, ...rest } = hook.json;
    assert.deepEqual(rest, { object: 'whatsapp_business_account' });
    assert.equal(entry.length, 1);
    assert.equal(entry[0].id, BUSINESS);
    assert.ok(Number.isInteger(entry[0].time) && Math.abs(entry[0].time * 1000 - Date.now()) < 60_000);
    assert.deepEqual(entry[0].changes, [
      {
        value: {
          display_phone_number: BUSINESS,
          event: 'DOWNGRADE',
          old_limit: 'TIER_UNLIMITED',
          current_limit: 'TIER_250',
          max_daily_conversations_per_business: 'TIER_250',
        },
        field: 'phone_number_quality_update',
      },
    ]);
    assert.deepEqual(await readLimit(h), { limit: 250, used: 0 });
  });

  test('without currentLimit the limit stays and the webhook says it, without old_limit', async () => {
    assert.equal((await announce({ event: 'FLAGGED' })).status, 202);
    const hooks = await eventually(() => qualityHooks(h).length === 2 && qualityHooks(h));
    assert.deepEqual(hooks[1]?.json.entry[0].changes[0].value, {
      display_phone_number: BUSINESS,
      event: 'FLAGGED',
      current_limit: 'TIER_250',
      max_daily_conversations_per_business: 'TIER_250',
    });
    assert.deepEqual(await readLimit(h), { limit: 250, used: 0 });
  });

  test('bad input is a 400 naming the field, and nothing is posted', async () => {
    for (const [body, message] of [
      [{ event: 'WORSE' }, /^`event` must be one of FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE/],
      [{}, /^`event` must be one of/],
      [{ event: 'UPGRADE', currentLimit: 'TIER_5' }, /^`currentLimit` must be one of TIER_250, TIER_1K/],
      [{ event: 'UPGRADE', current_limit: 'TIER_2K' }, /^`current_limit` is not a field here/],
      ['"UPGRADE"', /^the body must be a JSON object/],
    ] as const) {
      const r = await announce(body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error.message, message);
    }
    const badPhone = await announce({ event: 'UPGRADE' }, '12');
    assert.equal(badPhone.status, 400);
    assert.match(badPhone.body.error.message, /^`phone` in the path/);
    // One more good one: posts of a number keep their order, so once it is in, none of the refused was.
    assert.equal((await announce({ event: 'UPGRADE', currentLimit: 'TIER_UNLIMITED' })).status, 202);
    const hooks = await eventually(() => qualityHooks(h).length >= 3 && qualityHooks(h));
    assert.equal(hooks.length, 3);
    assert.deepEqual(hooks[2]?.json.entry[0].changes[0].value, {
      display_phone_number: BUSINESS,
      event: 'UPGRADE',
      old_limit: 'TIER_250',
      current_limit: 'TIER_UNLIMITED',
      max_daily_conversations_per_business: 'TIER_UNLIMITED',
    });
    assert.deepEqual(await readLimit(h), { limit: 'unlimited', used: 0 });
  });
});

describe('the number controls of a private simulator', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ gate: { token: 'simulator-secret', secureCookie: false } });
  });
  after(() => h.close());

  test('need the simulator token, like its other own routes', async () => {
    const quality = `${h.base}/numbers/${BUSINESS}/quality`;
    for (const [method, url, body] of [
      ['GET', limitPath(h), undefined],
      ['PUT', limitPath(h), { limit: 250 }],
      ['POST', quality, { event: 'FLAGGED' }],
    ] as const) {
      const r = await request(url, { method, body });
      assert.equal(r.status, 401, `${method} ${url}`);
      assert.match(r.body.error.message, /This simulator is private/);
    }
    const token = 'simulator-secret';
    const set = await request(limitPath(h), { method: 'PUT', body: { limit: 2000 }, token });
    assert.deepEqual(set.body, { limit: 2000, used: 0 });
    const posted = await request(quality, { method: 'POST', body: { event: 'FLAGGED' }, token });
    assert.equal(posted.status, 202);
    const [hook] = await eventually(() => qualityHooks(h).length === 1 && qualityHooks(h));
    assert.equal(hook?.json.entry[0].changes[0].value.current_limit, 'TIER_2K');
  });
});
