/**
 * The dashboard's figures (src/domain/dashboard.ts) from the store's counts: statuses count toward
 * themselves and every one before (a read message was delivered and sent), rates are whole percents of
 * the step before, and templates are grouped by name and language, most sent first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dashboardOf } from '../../src/domain/dashboard.ts';
import type { DashboardStore } from '../../src/domain/ports/dashboard.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const TODAY = Math.floor(NOW / 86_400_000);

const store: DashboardStore = {
  sentByDay: async () => [
    { day: TODAY, status: 'READ', count: 3 },
    { day: TODAY, status: 'DELIVERED', count: 1 },
    { day: TODAY - 1, status: 'FAILED', count: 2 },
    { day: TODAY - 30, status: 'READ', count: 9 }, // before the range: not counted
  ],
  receivedByDay: async () => [{ day: TODAY, count: 4 }],
  failures: async () => [],
  deliveriesByStatus: async () => ({ succeeded: 5 }),
  templatesByStatus: async () => [
    { name: 'reminder', language: 'en', status: 'SENT', count: 1 },
    { name: 'spring_offer', language: 'en', status: 'READ', count: 3 },
    { name: 'spring_offer', language: 'en', status: 'DELIVERED', count: 1 },
    { name: 'spring_offer', language: 'en', status: 'FAILED', count: 1 },
  ],
};

test('totals, rates and templates of the last 7 days', async () => {
  const d = await dashboardOf(store, 'acc_1', { days: 7, now: NOW });
  assert.deepEqual(d.totals, { sent: 4, delivered: 4, read: 3, failed: 2, received: 4, pending: 0 });
  assert.deepEqual(d.rates, { delivered: 100, read: 75 });
  assert.equal(d.days.length, 7);
  assert.deepEqual(d.webhooks, { succeeded: 5, failed: 0, pending: 0 });
  assert.deepEqual(
    d.templates.map((t) => [t.name, t.sent, t.delivered, t.read, t.failed, t.rates.delivered, t.rates.read]),
    [
      ['spring_offer', 4, 4, 3, 1, 100, 75],
      ['reminder', 1, 0, 0, 0, 0, null],
    ],
  );
});
