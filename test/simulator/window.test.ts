/** The 24-hour customer-service window (docs/cloud-api.md §7, §8): async failed status by default, or a sync 400. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertSigned,
  eventually,
  graphSend,
  openWindow,
  request,
  startHarness,
  statusesOf,
  USER,
} from './harness.ts';

const DAY_MS = 24 * 3600 * 1000;

test('outside the window a send is accepted, then fails with 131047 (async mode)', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const r = await graphSend(h, { type: 'text', text: { body: 'Cold outreach' } });
  assert.equal(r.status, 200);
  const id = r.body.messages[0].id;
  const [failed] = await eventually(() => {
    const s = statusesOf(h, id);
    return s.length > 0 ? s : undefined;
  });
  assert.equal(failed.status, 'failed');
  assert.equal(failed.recipient_id, USER);
  assert.equal(failed.conversation, undefined);
  assert.equal(failed.pricing, undefined);
  assert.equal(failed.errors[0].code, 131047);
  assert.equal(typeof failed.errors[0].title, 'string');
  assert.match(failed.errors[0].error_data.details, /24 hours/);
  assertSigned(h.receiver.received.find((hook) => hook.body.includes(id))!);
  // Nothing else follows a failure.
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(
    statusesOf(h, id).map((s) => s.status),
    ['failed'],
  );
  const phone = await request(`${h.base}/users/${USER}/messages`);
  assert.equal(phone.body.messages[0].status, 'failed');
  assert.equal(phone.body.messages[0].error.code, 131047);
});

test('outside the window a send is refused with HTTP 400 and 131047 (sync mode)', async (t) => {
  const h = await startHarness({ windowErrorMode: 'sync' });
  t.after(() => h.close());
  const r = await graphSend(h, { type: 'text', text: { body: 'Cold outreach' } });
  assert.equal(r.status, 400);
  assert.equal(r.body.error.code, 131047);
  assert.match(r.body.error.error_data.details, /24 hours/);
  await openWindow(h);
  assert.equal((await graphSend(h, { type: 'text', text: { body: 'Now it works' } })).status, 200);
});

test('the window closes 24 hours after the user last wrote, per business number and user', async (t) => {
  let now = Date.UTC(2026, 10, 22, 12);
  const h = await startHarness({ windowErrorMode: 'sync', now: () => now });
  t.after(() => h.close());
  await openWindow(h);
  now += DAY_MS - 1000;
  assert.equal((await graphSend(h, { type: 'text', text: { body: 'still open' } })).status, 200);
  // Another user of the same business has no window of their own.
  assert.equal((await graphSend(h, { type: 'text', text: { body: 'x' } }, '254712345679')).status, 400);
  now += 1000;
  const closed = await graphSend(h, { type: 'text', text: { body: 'too late' } });
  assert.equal(closed.status, 400);
  assert.equal(closed.body.error.code, 131047);
});
