/**
 * The time limit of a network exchange (src/lib/deadline.ts): aborted with a `TimeoutError`, as
 * AbortSignal.timeout would be (src/network/transport-failure.ts classifies it by that name), and not at
 * all once cleared. The clock is node:test's mock, so nothing here waits. It is turned on inside each test
 * and off before the test ends: the suites of a shard share this process (test/run.ts), and a clock
 * mocked by a hook of this file would stop every later suite's timers.
 */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { deadline } from '../../src/lib/deadline.ts';

function withMockedClock(check: () => void): void {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    check();
  } finally {
    mock.timers.reset();
  }
}

test('the signal is aborted with a TimeoutError once the time has passed, not before', () => {
  withMockedClock(() => {
    const limit = deadline(1_000);
    mock.timers.tick(999);
    assert.equal(limit.signal.aborted, false);
    mock.timers.tick(1);
    assert.equal(limit.signal.aborted, true);
    const reason = limit.signal.reason as DOMException;
    assert.equal(reason.name, 'TimeoutError');
    assert.equal(reason.message, 'no answer within 1000 ms');
  });
});

test('a cleared limit never aborts its signal', () => {
  withMockedClock(() => {
    const limit = deadline(1_000);
    mock.timers.tick(500);
    limit.clear();
    mock.timers.tick(10_000);
    assert.equal(limit.signal.aborted, false);
  });
});
