/**
 * Batched writes (src/store/write-batches.ts): a lone write goes on its own at the end of its turn of the
 * event loop; the writes of one turn, or asked while one is under way, go as one statement, each answered with its own result; when that statement fails, each write is tried
 * again alone, so one bad write fails only its own request.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchedWrite } from '../../src/store/write-batches.ts';

/** Statements the test answers by hand. */
function controlled() {
  const calls: { kind: 'many' | 'one'; items: number[]; settle(fail?: boolean): void }[] = [];
  const runMany = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({
        kind: 'many',
        items,
        settle: (fail) =>
          fail ? reject(new Error('statement failed')) : resolve(items.map((i) => `many:${i}`)),
      });
    });
  const runOne = (item: number) =>
    new Promise<string>((resolve, reject) => {
      calls.push({
        kind: 'one',
        items: [item],
        settle: (fail) => (fail ? reject(new Error(`write ${item} failed`)) : resolve(`one:${item}`)),
      });
    });
  return { calls, runMany, runOne };
}

/**
 * Until the statements due have been sent: the end of this turn of the event loop, and of the one that a
 * statement's answer, given during this turn, schedules the next statement for.
 */
const turn = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe('batched writes', () => {
  test("a lone write goes alone at its turn's end; the ones asked meanwhile go together, in order", async () => {
    const s = controlled();
    const write = batchedWrite(s.runMany, s.runOne);
    const first = write(1);
    assert.equal(s.calls.length, 0, 'nothing is written before the turn ends');
    await turn();
    assert.deepEqual(
      s.calls.map((c) => [c.kind, c.items]),
      [['one', [1]]],
    );
    const later = [write(2), write(3), write(4)];
    s.calls[0]!.settle();
    assert.equal(await first, 'one:1');
    await turn();
    assert.deepEqual(
      s.calls.map((c) => [c.kind, c.items]),
      [
        ['one', [1]],
        ['many', [2, 3, 4]],
      ],
    );
    s.calls[1]!.settle();
    assert.deepEqual(await Promise.all(later), ['many:2', 'many:3', 'many:4']);
  });

  test('a failed statement: each write again alone, and only the bad one fails', async () => {
    const s = controlled();
    const write = batchedWrite(s.runMany, s.runOne);
    const first = write(0);
    await turn();
    const batch = [write(1), write(2), write(3)].map((p) =>
      p.then(
        (v) => ({ v }),
        (e: Error) => ({ e: e.message }),
      ),
    );
    s.calls[0]!.settle();
    await first;
    await turn();
    s.calls[1]!.settle(true);
    await turn();
    const alone = s.calls.slice(2);
    assert.deepEqual(
      alone.map((c) => [c.kind, c.items]),
      [
        ['one', [1]],
        ['one', [2]],
        ['one', [3]],
      ],
    );
    alone[0]!.settle();
    alone[1]!.settle(true);
    alone[2]!.settle();
    assert.deepEqual(await Promise.all(batch), [{ v: 'one:1' }, { e: 'write 2 failed' }, { v: 'one:3' }]);
  });
});
