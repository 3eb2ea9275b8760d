/** The retention job (src/domain/retention.ts): the cutoff, batch after batch until none is full, and off at 0. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RETENTION_BATCH, retentionJob } from '../../src/domain/retention.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24);
const quiet = { error() {}, info() {} };

function backlog(records: number) {
  const calls: { cutoff: number; limit: number }[] = [];
  let left = records;
  return {
    calls,
    async removeBefore(cutoff: number, limit: number) {
      calls.push({ cutoff, limit });
      const removed = Math.min(left, limit);
      left -= removed;
      return removed;
    },
  };
}

test('everything older than the retention age is removed, a full batch at a time', async () => {
  const store = backlog(2 * RETENTION_BATCH + 7);
  const job = retentionJob({ store, maxAgeDays: 30, now: () => NOW, logger: quiet });
  assert.equal(await job.runOnce(), 2 * RETENTION_BATCH + 7);
  assert.deepEqual(
    store.calls,
    Array.from({ length: 3 }, () => ({ cutoff: NOW - 30 * DAY, limit: RETENTION_BATCH })),
  );
});

test('with a retention of 0 days nothing is ever removed', async () => {
  const store = backlog(10);
  const job = retentionJob({ store, maxAgeDays: 0, now: () => NOW, logger: quiet });
  job.start();
  assert.equal(await job.runOnce(), 0);
  await job.stop();
  assert.equal(store.calls.length, 0);
});

test('a failing store is logged and the job tries again on its next turn', async () => {
  let calls = 0;
  const store = {
    async removeBefore(): Promise<number> {
      calls++;
      throw new Error('database away');
    },
  };
  const errors: string[] = [];
  let twice: () => void = () => {};
  const loggedTwice = new Promise<void>((resolve) => {
    twice = resolve;
  });
  const logger = {
    error(_obj: object, msg: string) {
      errors.push(msg);
      if (errors.length === 2) twice();
    },
    info() {},
  };
  const job = retentionJob({ store, maxAgeDays: 30, now: () => NOW, logger, everyMs: 1, firstAfterMs: 0 });
  job.start();
  await loggedTwice;
  await job.stop();
  assert.ok(calls >= 2);
  assert.match(errors[0]!, /retention failed; it runs again/);
  await assert.rejects(job.runOnce(), /database away/, 'a run asked for directly reports the failure');
});
