/**
 * Webhook delivery like Meta's (docs/cloud-api.md §3.2, §3.7): retried while the receiver fails, in order per
 * message, signed over the exact bytes (with Meta's \u escapes), and stopped by close(); a network that owes
 * too many webhooks takes no more sends until some are taken.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import {
  assertSigned,
  eventually,
  graphSend,
  inboundHooks,
  openWindow,
  startHarness,
  statusesOf,
  threeStatusesOf,
  userSays,
} from './harness.ts';

test('a briefly failing receiver still gets every webhook, statuses in order', async (t) => {
  const warnings: object[] = [];
  const h = await startHarness({ logger: { warn: (obj) => warnings.push(obj) } });
  t.after(() => h.close());
  h.receiver.failNext(2);
  const said = await userSays(h, { text: 'are you there?' });
  assert.equal(said.status, 202);
  await eventually(() => inboundHooks(h).some((x) => x.body.includes(said.body.id)));
  assert.equal(warnings.length, 2);

  h.receiver.failNext(1, 500);
  const id = (await graphSend(h, { type: 'text', text: { body: 'yes' } })).body.messages[0].id;
  const statuses = await threeStatusesOf(h, id);
  assert.deepEqual(
    statuses.map((s) => s.status),
    ['sent', 'delivered', 'read'],
  );
});

test('non-ASCII text is sent as \\u escapes and the signature covers those exact bytes', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const r = await userSays(h, { text: 'Café 👍', profileName: 'Zoë' });
  const hook = await eventually(() => inboundHooks(h).find((x) => x.body.includes(r.body.id)));
  assertSigned(hook);
  assert.ok(hook.body.includes('Caf\\u00e9 \\ud83d\\udc4d'), hook.body);
  assert.equal(Buffer.byteLength(hook.body), hook.body.length, 'the body is pure ASCII');
  assert.equal(hook.json.entry[0].changes[0].value.messages[0].text.body, 'Café 👍');
  assert.equal(hook.json.entry[0].changes[0].value.contacts[0].profile.name, 'Zoë');
});

test('an unreachable receiver never crashes the simulator', async (t) => {
  const warnings: object[] = [];
  const h = await startHarness({
    webhookUrl: 'http://127.0.0.1:1/hooks',
    logger: { warn: (o) => warnings.push(o) },
  });
  t.after(() => h.close());
  assert.equal((await userSays(h, { text: 'hello?' })).status, 202);
  await eventually(() => warnings.length > 0);
  assert.equal((await graphSend(h, { type: 'text', text: { body: 'still up' } })).status, 200);
});

test('close() ends pending timers and cuts hung posts', async (t) => {
  // Never answers: the post stays in flight until close() cuts it. Its answer is awaited for ten minutes,
  // so nothing but the close can end it: were the close to wait for it, or leave it, this test would hang
  // (and fail on the runner's timeout) rather than pass by luck.
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  let cut!: () => void;
  const ended = new Promise<void>((resolve) => (cut = resolve));
  const hung = createServer((request) => {
    request.socket.on('close', cut);
    arrived();
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    hung.closeAllConnections();
    hung.close();
  });
  const port = (hung.address() as AddressInfo).port;
  const h = await startHarness({
    webhookUrl: `http://127.0.0.1:${port}/`,
    statusDelayMs: 60_000,
    webhookTimeoutMs: 600_000,
  });
  await userSays(h, { text: 'hi' });
  await inFlight;
  await h.close();
  await ended;
});

test('idle() resolves once queued webhooks are delivered', async (t) => {
  const h = await startHarness({ statusDelayMs: 5 });
  t.after(() => h.close());
  await openWindow(h);
  const id = (await graphSend(h, { type: 'text', text: { body: 'x' } })).body.messages[0].id;
  await eventually(() => statusesOf(h, id).length === 3);
  await h.simulator.idle();
  assert.equal(statusesOf(h, id).length, 3);
});

test('a network that owes too many webhooks takes the next send only once one is taken', async (t) => {
  const warnings: object[] = [];
  const h = await startHarness({
    maxOwedWebhooks: 1,
    webhookRetryDelaysMs: Array.from({ length: 500 }, () => 10),
    logger: { warn: (obj) => warnings.push(obj) },
  });
  t.after(() => h.close());
  await openWindow(h);
  h.receiver.failNext(1_000_000);
  const first = await graphSend(h, { type: 'text', text: { body: 'one' } });
  assert.equal(first.status, 200, 'nothing was owed: taken at once');
  // Its `sent` status is queued on a timer of 0 ms after the answer: owed for sure once a post of it was
  // refused. A second send made before that timer ran would find nothing owed yet.
  await eventually(() => warnings.length >= 1);

  let answered = false;
  const second = graphSend(h, { type: 'text', text: { body: 'two' } }).then((r) => {
    answered = true;
    return r;
  });
  // The first message's status is refused again and again: the second send waits all along.
  await eventually(() => warnings.length >= 6);
  assert.equal(answered, false, 'no send is taken while the network owes its limit');
  assert.deepEqual(statusesOf(h, first.body.messages[0].id), [], 'nothing was taken yet');

  h.receiver.failNext(0);
  const taken = await second;
  assert.equal(taken.status, 200);
  const id = taken.body.messages[0].id;
  const statuses = await threeStatusesOf(h, id);
  assert.deepEqual(
    statuses.map((s) => s.status),
    ['sent', 'delivered', 'read'],
  );
});
