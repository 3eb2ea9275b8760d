/**
 * A batch's work runs a few items at a time, in order within a key, and a failure is reported once the
 * other items have run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInOrderPerKey } from '../../src/domain/ordered-work.ts';

/** Waits `n` event-loop turns: items take different times, so only the per-key ordering keeps them in line. */
async function turns(n: number): Promise<void> {
  for (let k = 0; k < n; k++) await new Promise<void>((resolve) => setImmediate(resolve));
}

test('items of one key run one after another in batch order; at most `width` run at once', async () => {
  const items = Array.from({ length: 60 }, (_, i) => ({ key: `k${i % 7}`, i }));
  const done: { key: string; i: number }[] = [];
  let running = 0;
  let peak = 0;
  const runningKeys = new Set<string>();
  await runInOrderPerKey(
    items,
    (item) => item.key,
    3,
    async (item) => {
      assert.ok(!runningKeys.has(item.key), `two items of ${item.key} at once`);
      runningKeys.add(item.key);
      peak = Math.max(peak, ++running);
      await turns((item.i * 7) % 5);
      running--;
      runningKeys.delete(item.key);
      done.push(item);
    },
  );
  assert.equal(done.length, items.length);
  assert.equal(peak, 3);
  for (const key of new Set(items.map((i) => i.key))) {
    assert.deepEqual(
      done.filter((d) => d.key === key).map((d) => d.i),
      items.filter((d) => d.key === key).map((d) => d.i),
    );
  }
});

test('a failure stops the rest of its key, lets the other keys finish, and is thrown', async () => {
  const ran: string[] = [];
  const items = ['a1', 'b1', 'a2', 'b2', 'c1', 'a3'];
  await assert.rejects(
    runInOrderPerKey(
      items,
      (item) => item[0]!,
      2,
      async (item) => {
        await turns(item === 'a1' ? 3 : 1);
        if (item === 'a2') throw new Error('a2 failed');
        ran.push(item);
      },
    ),
    /a2 failed/,
  );
  assert.deepEqual(ran.toSorted(), ['a1', 'b1', 'b2', 'c1']);
});

test('an empty batch runs nothing', async () => {
  await runInOrderPerKey(
    [],
    () => 'k',
    4,
    async () => assert.fail('nothing to run'),
  );
});
