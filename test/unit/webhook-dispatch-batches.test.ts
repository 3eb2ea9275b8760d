/**
 * Two rules of the webhook dispatcher, with no store: attempts recorded in batches (what ends in one turn
 * is written together, what ends during a write waits for the next), and claims that would only re-read
 * what an empty claim read are not repeated until something changes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AttemptBatches } from '../../src/events/attempt-batches.ts';
import { EmptyScans } from '../../src/events/empty-scans.ts';

/** A write that ends when the test says so. */
function controlledWrites() {
  const batches: number[][] = [];
  const ends: (() => void)[] = [];
  const write = (outcomes: number[]) => {
    batches.push(outcomes);
    return new Promise<void>((resolve) => ends.push(resolve));
  };
  return { batches, ends, write };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('outcomes of one turn are written together; those that end during a write, by the next', async () => {
  const { batches, ends, write } = controlledWrites();
  const recorder = new AttemptBatches<number>(write, () => assert.fail('no write failed'));
  const recorded: number[] = [];
  for (const n of [1, 2, 3]) void recorder.record(n).then(() => recorded.push(n));
  assert.equal(recorder.waiting, 3);
  await turn();
  assert.deepEqual(batches, [[1, 2, 3]], 'one write for the turn');
  for (const n of [4, 5]) void recorder.record(n).then(() => recorded.push(n));
  await turn();
  assert.equal(batches.length, 1, 'nothing else is written while a write is under way');
  assert.equal(recorder.waiting, 5);
  ends[0]!();
  await turn();
  assert.deepEqual(recorded, [1, 2, 3], 'an outcome is recorded once its own batch is');
  assert.deepEqual(batches, [
    [1, 2, 3],
    [4, 5],
  ]);
  ends[1]!();
  await turn();
  assert.deepEqual(recorded, [1, 2, 3, 4, 5]);
  assert.equal(recorder.waiting, 0);
});

test('a failed write is reported once for its batch, and the next outcomes are written again', async () => {
  const failures: [string, number][] = [];
  let fail = true;
  const written: number[][] = [];
  const recorder = new AttemptBatches<number>(
    async (outcomes) => {
      if (fail) throw new Error('database unreachable');
      written.push(outcomes);
    },
    (error, count) => failures.push([(error as Error).message, count]),
  );
  await Promise.all([recorder.record(1), recorder.record(2)]);
  assert.deepEqual(failures, [['database unreachable', 2]]);
  fail = false;
  await recorder.record(3);
  assert.deepEqual(written, [[3]]);
});

test('an empty claim leaving out some endpoints is not repeated by one leaving out as much or more', () => {
  const scans = new EmptyScans();
  const now = 1_000;
  assert.equal(scans.worthClaiming([], ['e1'], now), true, 'nothing is known yet');
  scans.noteClaim([], ['e1'], false, now, 250);
  assert.equal(scans.worthClaiming([], ['e1'], now), false, 'the same claim');
  assert.equal(scans.worthClaiming(['a9'], ['e1', 'e2'], now), false, 'one leaving out more');
  assert.equal(scans.worthClaiming([], [], now), true, 'e1 has room again: its deliveries may be read');
  assert.equal(scans.worthClaiming([], ['e2'], now), true, 'one leaving out something else');
  assert.equal(scans.worthClaiming([], ['e1'], now + 250), true, 'the next poll looks again');
});

test('new events make every claim worth making again; a claim leaving nothing out is always made', () => {
  const scans = new EmptyScans();
  scans.noteClaim(['a1'], [], false, 0, 500);
  assert.equal(scans.worthClaiming(['a1'], [], 0), false);
  scans.forget();
  assert.equal(scans.worthClaiming(['a1'], [], 0), true);
  scans.noteClaim([], [], false, 0, 500);
  assert.equal(scans.worthClaiming([], [], 0), true, 'a claim that left nothing out is not remembered');
});

test('the same claim found empty again and again is believed longer each time, up to eight times the first wait; new events or a find start it over', () => {
  const scans = new EmptyScans();
  let now = 0;
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    scans.noteClaim([], ['e1'], false, now, 250);
    let until = now;
    while (!scans.worthClaiming([], ['e1'], until)) until += 50;
    waits.push(until - now);
    now = until;
  }
  assert.deepEqual(waits, [250, 500, 1000, 2000, 2000, 2000]);
  scans.noteClaim([], ['e1', 'e2'], false, now, 250);
  assert.equal(
    scans.worthClaiming([], ['e1', 'e2'], now + 250),
    true,
    'another claim starts from the first wait',
  );
  scans.noteClaim([], ['e1'], false, now, 250);
  scans.noteClaim([], ['e1'], false, now, 250);
  scans.forget();
  scans.noteClaim([], ['e1'], false, now, 250);
  assert.equal(scans.worthClaiming([], ['e1'], now + 250), true, 'new events start it over');
  scans.noteClaim([], ['e1'], false, now, 250);
  scans.noteClaim([], ['e1'], true, now, 250);
  assert.equal(
    scans.worthClaiming([], ['e1'], now),
    true,
    'a claim that found deliveries: anything may be due',
  );
  scans.noteClaim([], ['e1'], false, now, 250);
  assert.equal(
    scans.worthClaiming([], ['e1'], now + 250),
    true,
    'and the next empty one waits the first wait',
  );
});
