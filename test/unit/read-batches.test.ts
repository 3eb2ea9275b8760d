/**
 * Batched reads (src/store/read-batches.ts): the reads asked in one turn of the event loop go together at
 * its end when none is under way; reads asked meanwhile go together in the next statement and each gets
 * the rows of its own key; a read never takes the answer of a statement sent before it was asked; a failed
 * statement fails only its own reads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchedRead } from '../../src/store/read-batches.ts';

interface Row {
  key: string;
  value: string;
}

/**
 * A statement whose answers the test releases by hand, recording the keys of each call. Like a database's,
 * its answer is what the data held when it was sent.
 */
function controlledStatement(data: Record<string, string[]>) {
  const calls: string[][] = [];
  const pending: { keys: string[]; answer(): void; fail(error: Error): void }[] = [];
  const run = (keys: string[]) =>
    new Promise<Row[]>((resolve, reject) => {
      calls.push(keys);
      const snapshot = keys.flatMap((key) => (data[key] ?? []).map((value) => ({ key, value })));
      pending.push({
        keys,
        answer: () => resolve(snapshot),
        fail: reject,
      });
    });
  return { run, calls, next: () => pending.shift()! };
}

/**
 * Until the statements due have been sent: the end of this turn of the event loop, and of the one that a
 * statement's answer, given during this turn, schedules the next statement for.
 */
const turns = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

describe('batched reads', () => {
  test('the reads of one turn go together at its end; reads asked meanwhile go in the next', async () => {
    const data = { a: ['a1'], b: ['b1', 'b2'], c: [] };
    const statement = controlledStatement(data);
    const read = batchedRead(statement.run, (row) => row.key);
    const first = [read('a'), read('c'), read('a')];
    assert.equal(statement.calls.length, 0, 'nothing is sent before the turn ends');
    await turns();
    assert.deepEqual(statement.calls, [['a', 'c']], "one statement for the turn's reads, each key once");
    const asked = [read('b'), read('a'), read('c'), read('b'), read('missing')];
    await turns();
    assert.equal(statement.calls.length, 1, 'the others wait for the read under way');
    statement.next().answer();
    assert.deepEqual(await Promise.all(first), [
      [{ key: 'a', value: 'a1' }],
      [],
      [{ key: 'a', value: 'a1' }],
    ]);
    await turns();
    assert.deepEqual(statement.calls[1], ['b', 'a', 'c', 'missing'], 'one statement, each key once');
    statement.next().answer();
    const [b, a, c, b2, missing] = await Promise.all(asked);
    assert.deepEqual(b, [
      { key: 'b', value: 'b1' },
      { key: 'b', value: 'b2' },
    ]);
    assert.deepEqual(b2, b);
    assert.deepEqual(a, [{ key: 'a', value: 'a1' }]);
    assert.deepEqual(c, []);
    assert.deepEqual(missing, []);
  });

  test('a read asked while its key is being read waits for a statement of its own', async () => {
    const data: Record<string, string[]> = { k: ['before'] };
    const statement = controlledStatement(data);
    const read = batchedRead(statement.run, (row) => row.key);
    const early = read('k');
    await turns();
    // The value changes after the first statement was sent: a later read must see the change.
    data.k = ['after'];
    const late = read('k');
    statement.next().answer();
    assert.deepEqual(await early, [{ key: 'k', value: 'before' }]);
    await turns();
    assert.equal(statement.calls.length, 2, 'the late read was not answered by the earlier statement');
    statement.next().answer();
    assert.deepEqual(await late, [{ key: 'k', value: 'after' }]);
  });

  test('a failed statement fails its own reads only; the next ones run', async () => {
    const statement = controlledStatement({ x: ['x1'] });
    const read = batchedRead(statement.run, (row) => row.key);
    const failing = read('x');
    await turns();
    const next = read('x');
    statement.next().fail(new Error('connection lost'));
    await assert.rejects(failing, /connection lost/);
    await turns();
    statement.next().answer();
    assert.deepEqual(await next, [{ key: 'x', value: 'x1' }]);
  });

  test('many keys are split into statements of at most 256 keys', async () => {
    const statement = controlledStatement({});
    const read = batchedRead(statement.run, (row) => row.key);
    const first = read('k0');
    await turns();
    const rest = Array.from({ length: 600 }, (_, i) => read(`k${i + 1}`));
    statement.next().answer();
    await first;
    const sizes: number[] = [];
    while (sizes.reduce((a, b) => a + b, 0) < 600) {
      await turns();
      const call = statement.next();
      sizes.push(call.keys.length);
      call.answer();
    }
    assert.deepEqual(sizes, [256, 256, 88]);
    assert.equal((await Promise.all(rest)).length, 600);
  });
});
