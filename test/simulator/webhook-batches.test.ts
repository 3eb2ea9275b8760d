/**
 * The network aggregates webhooks only when it is behind (src/simulator/webhook-batch.ts): a post that
 * finds a free slot goes alone; the posts that waited for a slot leave together, their entries joined in
 * one signed envelope, and each of them is settled (taken off the journal, its hooks run) with the batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Scheduler } from '../../src/simulator/scheduler.ts';
import { StateJournal } from '../../src/simulator/state/journal.ts';
import { MAX_BATCH_BYTES, MAX_BATCH_POSTS, takeBatch } from '../../src/simulator/webhook-batch.ts';
import { serializeWebhook, WebhookPoster } from '../../src/simulator/webhook-poster.ts';
import { startReceiver } from '../support/receiver.ts';
import { assertSigned, eventually, memoryStore, SECRET } from './harness.ts';

function envelope(id: string, padding = '') {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: '14155550100', changes: [{ field: 'messages', value: { statuses: [{ id, padding }] } }] }],
  };
}

const ready = (id: string, padding = '') => ({ body: serializeWebhook(envelope(id, padding)) });
const idsOf = (body: string): string[] =>
  JSON.parse(body).entry.map((e: any) => e.changes[0].value.statuses[0].id);

test('a batch joins the entries of the posts that waited, in order, into one envelope', () => {
  const waiting = [ready('a'), ready('b'), ready('c')];
  const batch = takeBatch(waiting);
  assert.deepEqual(waiting, []);
  assert.equal(batch.items.length, 3);
  assert.deepEqual(idsOf(batch.body), ['a', 'b', 'c']);
  assert.equal(JSON.parse(batch.body).object, 'whatsapp_business_account');

  const single = [ready('x')];
  assert.equal(takeBatch(single).body, ready('x').body, 'one post is posted as it was serialized');
});

test('a batch stops at a post that must go alone and at its size limits', () => {
  const waiting = [ready('a'), { body: '{"object":"page","entry":[]}' }, ready('c')];
  assert.deepEqual(idsOf(takeBatch(waiting).body), ['a']);
  assert.equal(takeBatch(waiting).body, '{"object":"page","entry":[]}');
  assert.deepEqual(idsOf(takeBatch(waiting).body), ['c']);

  const flagged = [ready('a'), { ...ready('b'), alone: true as const }];
  assert.equal(takeBatch(flagged).items.length, 1, 'a payload that was not a plain envelope never joins');

  const many = Array.from({ length: MAX_BATCH_POSTS + 5 }, (_, i) => ready(`m${i}`));
  assert.equal(takeBatch(many).items.length, MAX_BATCH_POSTS);
  assert.equal(many.length, 5);

  const big = Array.from({ length: 10 }, (_, i) => ready(`b${i}`, 'x'.repeat(20_000)));
  const batch = takeBatch(big);
  assert.equal(batch.items.length, 3, 'three posts of about 20 KB fit in 64 KiB, four do not');
  assert.ok(batch.body.length <= MAX_BATCH_BYTES);
});

test('posts that wait for a slot leave as one signed batch, and each is settled with it', async (t) => {
  const receiver = await startReceiver();
  receiver.hold();
  const scheduler = new Scheduler();
  const { store, snapshot } = memoryStore();
  const journal = new StateJournal(store);
  const accepted: string[] = [];
  const firstTries: boolean[] = [];
  const poster = new WebhookPoster({
    url: () => receiver.url,
    appSecret: SECRET,
    scheduler,
    journal,
    markAccepted: (mark) => accepted.push(mark.id),
  });
  t.after(async () => {
    scheduler.close();
    await poster.close();
    await receiver.close();
  });

  // 32 posts fill every slot and are held by the receiver; 8 more wait for a slot.
  const ids = Array.from({ length: 40 }, (_, i) => `wamid.${i}`);
  for (const id of ids)
    poster.enqueue(`status:${id}`, envelope(id), {
      accepted: { user: '254712345678', id },
      onFirstTry: (ok) => firstTries.push(ok),
    });
  await eventually(() => receiver.received.length === 32);
  assert.ok(
    receiver.received.every((p) => idsOf(p.body).length === 1),
    'posts that found a slot went alone',
  );
  // Posts of different keys keep no order among themselves: the batch holds whichever eight waited.
  const alone = new Set(receiver.received.map((p) => idsOf(p.body)[0]));

  receiver.release();
  await poster.idle();
  assert.equal(receiver.received.length, 33, 'the eight that waited went in one post');
  const batch = receiver.received[32]!;
  assert.deepEqual(idsOf(batch.body).sort(), ids.filter((id) => !alone.has(id)).sort());
  assertSigned(batch); // over the batch's own bytes

  assert.deepEqual([...accepted].sort(), [...ids].sort(), 'every post of the batch is marked accepted');
  assert.deepEqual(
    firstTries,
    ids.map(() => true),
  );
  await journal.settled();
  assert.equal(
    [...snapshot().keys()].filter((k) => k.startsWith('webhook/')).length,
    0,
    'every post is off the journal once its batch was accepted',
  );
});
