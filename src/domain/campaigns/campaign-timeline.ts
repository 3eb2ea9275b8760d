/**
 * A campaign's statuses over time (docs/campaigns.md, "Progress"): how many of its messages had been
 * sent, delivered, read and had failed at each moment since it started, from the messages' status
 * history. The portal draws it as a chart; each series only grows.
 */
import type { Campaign, CampaignsStore } from '../ports/campaigns.ts';

export const TIMELINE_SERIES = ['sent', 'delivered', 'read', 'failed'] as const;
export type TimelineSeries = (typeof TIMELINE_SERIES)[number];

export interface Timeline {
  /** When the campaign started (epoch ms): the chart's left edge. */
  from: number;
  /** The span of one point, a whole number of seconds. */
  bucketMs: number;
  /** The end of each point's span (epoch ms), left to right. */
  at: number[];
  /** Per series, how many messages had reached that status by the end of each point's span. */
  series: Record<TimelineSeries, number[]>;
}

/** Points across the chart: enough for a smooth line, few enough to read as a table. */
export const TIMELINE_POINTS = 24;

/** A span of at least a second, rounded up to whole seconds, so that the points cover [from, to]. */
function bucketOf(from: number, to: number): number {
  const span = Math.max(1000, to - from);
  return Math.ceil(span / TIMELINE_POINTS / 1000) * 1000;
}

function cumulative(steps: number[]): number[] {
  let total = 0;
  return steps.map((n) => {
    total += n;
    return total;
  });
}

/** The timeline of a campaign that started; undefined for one that has not. */
export async function campaignTimeline(
  campaigns: Pick<CampaignsStore, 'statusesOverTime'>,
  campaign: Campaign,
  now: number,
): Promise<Timeline | undefined> {
  const from = campaign.startedAt;
  if (from === null) return undefined;
  const to = campaign.completedAt && campaign.status === 'COMPLETED' ? campaign.completedAt : now;
  const bucketMs = bucketOf(from, to);
  const points = Math.max(1, Math.min(TIMELINE_POINTS, Math.ceil((to - from) / bucketMs)));
  const zeros = () => new Array<number>(points).fill(0);
  const steps: Record<TimelineSeries, number[]> = {
    sent: zeros(),
    delivered: zeros(),
    read: zeros(),
    failed: zeros(),
  };
  for (const { status, bucket, count } of await campaigns.statusesOverTime(campaign, from, bucketMs)) {
    const key = TIMELINE_SERIES.find((s) => s === status.toLowerCase());
    // A report that came after the last point (a late status of a completed campaign) counts at the end.
    if (key) steps[key][Math.min(points - 1, Math.max(0, bucket))]! += count;
  }
  const series: Record<TimelineSeries, number[]> = {
    sent: cumulative(steps.sent),
    delivered: cumulative(steps.delivered),
    read: cumulative(steps.read),
    failed: cumulative(steps.failed),
  };
  const at = Array.from({ length: points }, (_, i) => Math.min(to, from + (i + 1) * bucketMs));
  return { from, bucketMs, at, series };
}
