/**
 * The sign-in attempt count behind the portal lockout (src/store/portal-repo.ts, countAttempt), on SQLite
 * and PostgreSQL: parallel attempts each get their own number, the attempt that reaches the limit starts the
 * lockout, later ones are over the limit, and an ended window or lockout starts the count afresh.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AttemptPolicy, PortalStore } from '../../src/domain/ports/portal.ts';
import type { Store } from '../../src/store/connect.ts';
import { portalRepo } from '../../src/store/portal-repo.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const POLICY: AttemptPolicy = { maxFailures: 5, windowMs: 15 * 60_000, lockoutMs: 15 * 60_000 };
const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

for (const target of targets) {
  describe(`sign-in attempts on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repo: PortalStore;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repo = portalRepo(store.db);
    });

    test('150 parallel attempts: five are numbered 1 to 5, every other one is over the limit', {
      skip,
    }, async () => {
      const counts = await Promise.all(
        Array.from({ length: 150 }, () => repo.countAttempt('parallel@example.org', T0, POLICY)),
      );
      const numbers = counts.map((c) => c.attempt).sort((a, b) => a - b);
      assert.deepEqual(numbers.slice(0, 5), [1, 2, 3, 4, 5]);
      assert.deepEqual(new Set(numbers.slice(5)), new Set([6]));
      // From the fifth attempt on, every answer names the same lockout end.
      const lockEnds = new Set(counts.filter((c) => c.attempt >= 5).map((c) => c.lockedUntil));
      assert.deepEqual(lockEnds, new Set([T0 + POLICY.lockoutMs]));
      assert.ok(counts.filter((c) => c.attempt < 5).every((c) => c.lockedUntil === 0));
    });

    test('a lockout holds until its end, then the count starts afresh', { skip }, async () => {
      const email = 'lock-ends@example.org';
      for (let i = 1; i <= 5; i++) await repo.countAttempt(email, T0 + i, POLICY);
      const end = T0 + 5 + POLICY.lockoutMs;
      assert.deepEqual(await repo.countAttempt(email, end - 1, POLICY), { attempt: 6, lockedUntil: end });
      assert.deepEqual(await repo.countAttempt(email, end, POLICY), { attempt: 1, lockedUntil: 0 });
      assert.deepEqual(await repo.countAttempt(email, end + 1, POLICY), { attempt: 2, lockedUntil: 0 });
    });

    test('attempts older than the window no longer count', { skip }, async () => {
      const email = 'window@example.org';
      for (let i = 0; i < 4; i++) await repo.countAttempt(email, T0, POLICY);
      const fifth = await repo.countAttempt(email, T0 + POLICY.windowMs, POLICY);
      assert.deepEqual(fifth, { attempt: 1, lockedUntil: 0 }, 'the window that started at T0 has ended');
    });

    test('a success clears the count; other emails are not affected', { skip }, async () => {
      for (let i = 0; i < 4; i++) await repo.countAttempt('cleared@example.org', T0, POLICY);
      await repo.countAttempt('other@example.org', T0, POLICY);
      await repo.clearFailures('cleared@example.org');
      assert.equal((await repo.countAttempt('cleared@example.org', T0, POLICY)).attempt, 1);
      assert.equal((await repo.countAttempt('other@example.org', T0, POLICY)).attempt, 2);
    });

    test('a lockout recorded before attempts were counted (no count, no window) still holds', {
      skip,
    }, async () => {
      const until = T0 + 60_000;
      await store.db
        .insertInto('portal_lockouts')
        .values({ email: 'legacy@example.org', failures: 0, window_started_at: 0, locked_until: until })
        .execute();
      assert.deepEqual(await repo.countAttempt('legacy@example.org', T0, POLICY), {
        attempt: 6,
        lockedUntil: until,
      });
    });
  });
}
