/**
 * A campaign's statuses over time (src/domain/campaigns/campaign-timeline.ts) from an in-memory history:
 * each series adds up as it goes, the span of a point grows with the campaign, a step reported after the
 * last point counts at the end and one timed just before the start at the beginning, and a campaign that
 * has not started has no timeline.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { campaignTimeline, TIMELINE_POINTS } from '../../src/domain/campaigns/campaign-timeline.ts';
import type { Campaign, StatusBucket } from '../../src/domain/ports/campaigns.ts';

const START = Date.UTC(2026, 10, 26, 9);

function campaign(change: Partial<Campaign>): Campaign {
  return {
    id: 'cmp_1',
    accountId: 'acc_1',
    name: 'Sale',
    from: '14155550123',
    template: { name: 'sale', language: 'en' },
    parameters: [],
    audience: { tags: ['vip'] },
    status: 'RUNNING',
    statusReason: null,
    startAt: null,
    timeZone: null,
    total: 10,
    createdAt: START,
    updatedAt: START,
    startedAt: START,
    completedAt: null,
    ...change,
  };
}

/** A store that answers with `buckets`, and remembers the span it was asked for. */
function history(buckets: StatusBucket[]) {
  const asked: number[] = [];
  return {
    asked,
    statusesOverTime: async (_c: Campaign, _from: number, bucketMs: number) => {
      asked.push(bucketMs);
      return buckets;
    },
  };
}

test('each series adds up point by point; late and early steps land at the ends', async () => {
  const store = history([
    { status: 'SENT', bucket: 0, count: 4 },
    { status: 'SENT', bucket: 1, count: 6 },
    { status: 'DELIVERED', bucket: 1, count: 5 },
    { status: 'READ', bucket: 99, count: 2 },
    { status: 'FAILED', bucket: -1, count: 1 },
    { status: 'PENDING', bucket: 0, count: 7 },
  ]);
  const t = await campaignTimeline(store, campaign({}), START + 2 * 1000);
  assert.ok(t);
  assert.equal(t.bucketMs, 1000);
  assert.deepEqual(t.at, [START + 1000, START + 2000]);
  assert.deepEqual(t.series, { sent: [4, 10], delivered: [0, 5], read: [0, 2], failed: [1, 1] });
});

test('the span of a point grows with the campaign, in whole seconds, and ends at its completion', async () => {
  const store = history([]);
  const hour = 60 * 60 * 1000;
  const running = await campaignTimeline(store, campaign({}), START + hour);
  assert.equal(running?.bucketMs, 150_000);
  assert.equal(running?.at.length, TIMELINE_POINTS);
  assert.equal(running?.at.at(-1), START + hour);
  const done = await campaignTimeline(
    store,
    campaign({ status: 'COMPLETED', completedAt: START + 10_500 }),
    START + hour,
  );
  assert.equal(done?.bucketMs, 1000);
  assert.equal(done?.at.length, 11);
  assert.equal(done?.at.at(-1), START + 10_500, 'the last point ends when it completed, not now');
  assert.equal(
    await campaignTimeline(store, campaign({ startedAt: null, status: 'DRAFT' }), START),
    undefined,
  );
});
