/**
 * The per-key limiter's arithmetic on a controlled clock (no waiting), and its configuration.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { memoryRateLimiter } from '../../src/domain/rate-limit.ts';

function clock(start = 1_800_000_000_000) {
  const c = { now: start, read: () => c.now };
  return c;
}

test('an idle key may send the burst at once, then the rate refills it', () => {
  const time = clock();
  const limiter = memoryRateLimiter({ perSecond: 10, burst: 5 }, time.read);
  const first = [1, 2, 3, 4, 5].map(() => limiter.take('key_a'));
  assert.ok(first.every((d) => d.allowed));
  assert.deepEqual(
    first.map((d) => d.remaining),
    [4, 3, 2, 1, 0],
  );
  const refused = limiter.take('key_a');
  assert.equal(refused.allowed, false);
  assert.equal(refused.remaining, 0);
  assert.equal(refused.limit, 5);
  assert.equal(refused.retryAfterSeconds, 1, 'Retry-After is a whole number of seconds, at least 1');
  assert.equal(refused.resetSeconds, 1, 'the bucket is full again within half a second');

  time.now += 100; // one interval at 10/s: one request more
  assert.equal(limiter.take('key_a').allowed, true);
  assert.equal(limiter.take('key_a').allowed, false);

  time.now += 10_000; // long idle: the full burst again, not more
  const again = Array.from({ length: 6 }, () => limiter.take('key_a').allowed);
  assert.deepEqual(again, [true, true, true, true, true, false]);
});

test('keys are counted apart', () => {
  const time = clock();
  const limiter = memoryRateLimiter({ perSecond: 1, burst: 1 }, time.read);
  assert.equal(limiter.take('key_a').allowed, true);
  assert.equal(limiter.take('key_a').allowed, false);
  assert.equal(limiter.take('key_b').allowed, true);
});

test('a refused request does not use up capacity', () => {
  const time = clock();
  const limiter = memoryRateLimiter({ perSecond: 1, burst: 2 }, time.read);
  limiter.take('k');
  limiter.take('k');
  for (let i = 0; i < 50; i++) assert.equal(limiter.take('k').allowed, false);
  time.now += 1000;
  assert.equal(limiter.take('k').allowed, true, 'one second at 1/s gives exactly one request back');
  assert.equal(limiter.take('k').allowed, false);
});

test('Retry-After and Reset grow with a slow rate', () => {
  const time = clock();
  const limiter = memoryRateLimiter({ perSecond: 1, burst: 3 }, time.read);
  for (let i = 0; i < 3; i++) limiter.take('k');
  const refused = limiter.take('k');
  assert.equal(refused.retryAfterSeconds, 1);
  assert.equal(refused.resetSeconds, 3);
  time.now += 400;
  assert.equal(limiter.take('k').retryAfterSeconds, 1, '0.6 s rounds up to 1');
});

test('rates that do not divide 1000 ms still allow exactly the burst', () => {
  const time = clock();
  const limiter = memoryRateLimiter({ perSecond: 3, burst: 3 }, time.read);
  assert.deepEqual(
    Array.from({ length: 4 }, () => limiter.take('k').allowed),
    [true, true, true, false],
  );
  time.now += 1000;
  assert.deepEqual(
    Array.from({ length: 4 }, () => limiter.take('k').allowed),
    [true, true, true, false],
  );
});

test('configuration: default 100/s with a burst of 200, 0 turns it off, bad values are named', () => {
  assert.deepEqual(loadConfig({}).rateLimit, { perSecond: 100, burst: 200 });
  assert.deepEqual(loadConfig({ RATE_LIMIT_PER_SECOND: '10' }).rateLimit, { perSecond: 10, burst: 20 });
  assert.deepEqual(loadConfig({ RATE_LIMIT_PER_SECOND: '10', RATE_LIMIT_BURST: '1' }).rateLimit, {
    perSecond: 10,
    burst: 1,
  });
  assert.equal(loadConfig({ RATE_LIMIT_PER_SECOND: '0' }).rateLimit, null);
  for (const [env, message] of [
    [{ RATE_LIMIT_PER_SECOND: '-1' }, /RATE_LIMIT_PER_SECOND must be an integer from 0 to 1000000/],
    [{ RATE_LIMIT_PER_SECOND: '2.5' }, /RATE_LIMIT_PER_SECOND must be an integer/],
    [{ RATE_LIMIT_BURST: '0' }, /RATE_LIMIT_BURST must be an integer from 1 to 1000000/],
    [{ RATE_LIMIT_BURST: 'lots' }, /RATE_LIMIT_BURST must be an integer/],
  ] as const) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  }
});
