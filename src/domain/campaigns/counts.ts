/**
 * A campaign's live counts (docs/campaigns.md) from its recipients grouped by state and message status.
 * `sent`, `delivered` and `read` are cumulative, as the network's own reports are (a read message was
 * delivered and sent); `queued` includes a message handed on whose outcome is not known yet.
 */
import type { RecipientTally, SkipReason } from '../ports/campaigns.ts';

export interface CampaignCounts {
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  replied: number;
  skipped: Record<SkipReason, number> & { total: number };
}

export function countsOf(tally: readonly RecipientTally[]): CampaignCounts {
  const counts: CampaignCounts = {
    total: 0,
    queued: 0,
    sent: 0,
    delivered: 0,
    read: 0,
    failed: 0,
    replied: 0,
    skipped: { total: 0, opted_out: 0, invalid_number: 0, duplicate: 0, missing_value: 0 },
  };
  for (const row of tally) {
    counts.total += row.count;
    counts.replied += row.replied;
    if (row.state === 'SKIPPED') {
      counts.skipped.total += row.count;
      const reason = row.reason as SkipReason | null;
      if (reason && reason in counts.skipped) counts.skipped[reason] += row.count;
    } else if (row.state === 'FAILED' || row.messageStatus === 'FAILED') counts.failed += row.count;
    else if (row.state !== 'DONE' || row.messageStatus === 'PENDING' || row.messageStatus === null) {
      counts.queued += row.count;
    } else {
      counts.sent += row.count;
      if (row.messageStatus === 'DELIVERED' || row.messageStatus === 'READ') counts.delivered += row.count;
      if (row.messageStatus === 'READ') counts.read += row.count;
    }
  }
  return counts;
}
