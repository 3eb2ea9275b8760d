/** The retry policy and the rate buckets of the network layer (docs/adr/0010), as plain functions. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NetworkFailure } from '../../src/domain/ports/network.ts';
import { Gcra } from '../../src/lib/gcra.ts';
import { safeToRetry, withRetries } from '../../src/network/retry-policy.ts';

const failure = (over: Partial<NetworkFailure>): NetworkFailure => ({
  kind: 'transient',
  cause: 'graph',
  code: 0,
  httpStatus: 0,
  title: 't',
  details: 'd',
  ...over,
});

test('only failures that prove nothing was taken are retried', () => {
  assert.equal(safeToRetry(failure({ cause: 'unreachable', title: 'network unreachable' })), true);
  assert.equal(safeToRetry(failure({ code: 130429, httpStatus: 429, throttled: true })), true);
  assert.equal(safeToRetry(failure({ code: 131016, httpStatus: 503 })), true);
  assert.equal(
    safeToRetry(failure({ kind: 'unknown_outcome', cause: 'timeout', title: 'network timeout' })),
    false,
  );
  assert.equal(safeToRetry(failure({ kind: 'permanent', code: 100, httpStatus: 400 })), false);
  // The pair limit refills one message per ~6 s: not within a request's budget.
  assert.equal(safeToRetry(failure({ code: 131056, httpStatus: 429, throttled: true })), false);
  // The gateway's own pacing already waited its longest.
  assert.equal(safeToRetry(failure({ cause: 'pacing', throttled: true })), false);
});

test('withRetries stops at the first unsafe failure and counts the tries', async () => {
  const policy = { attempts: 3, budgetMs: 2000, baseDelayMs: 1 };
  let tries = 0;
  const timeout = await withRetries(policy, async () => {
    tries++;
    return { ok: false as const, failure: failure({ kind: 'unknown_outcome', cause: 'timeout' }) };
  });
  assert.equal(tries, 1);
  assert.equal(timeout.ok, false);

  tries = 0;
  const down = await withRetries(policy, async () => {
    tries++;
    return { ok: false as const, failure: failure({ code: 131016, httpStatus: 503 }) };
  });
  assert.equal(tries, 3);
  assert.equal(!down.ok && down.failure.attempts, 3);

  tries = 0;
  const recovered = await withRetries(policy, async () =>
    ++tries < 2
      ? { ok: false as const, failure: failure({ code: 131016, httpStatus: 503 }) }
      : { ok: true as const },
  );
  assert.deepEqual(recovered, { ok: true });
  assert.equal(tries, 2);
});

test('a Retry-After longer than the budget ends the retries at once', async () => {
  let tries = 0;
  await withRetries({ attempts: 3, budgetMs: 500, baseDelayMs: 1 }, async () => {
    tries++;
    return { ok: false as const, failure: failure({ code: 130429, httpStatus: 429, retryAfterMs: 5000 }) };
  });
  assert.equal(tries, 1);
});

test('the rate bucket allows its burst at once, then one event per interval', () => {
  const bucket = new Gcra(100, 3);
  const t = 1_000;
  assert.deepEqual(
    [bucket.reserve('a', 0, t), bucket.reserve('a', 0, t), bucket.reserve('a', 0, t)],
    [0, 0, 0],
  );
  assert.equal(bucket.reserve('a', 0, t), 100, 'refused: conforms in 100 ms');
  assert.equal(bucket.reserve('b', 0, t), 0, 'keys are independent');
  assert.equal(bucket.reserve('a', 0, t + 100), 0);
  // Waiting is booked when allowed: the next slots are 100 and 200 ms away.
  assert.equal(bucket.reserve('a', 500, t + 100), 100);
  assert.equal(bucket.reserve('a', 500, t + 100), 200);
});

test('the rate bucket forgets rested keys past its cap', () => {
  const bucket = new Gcra(10, 1, 2);
  bucket.reserve('a', 0, 0);
  bucket.reserve('b', 0, 0);
  bucket.reserve('c', 0, 100); // a and b are rested by then
  assert.equal(bucket.reserve('a', 0, 100), 0);
});
