/**
 * What the `campaign.status` and `campaign.completed` events say (docs/webhooks.md), written with the
 * status change they report (src/store/campaigns-repo.ts).
 */
import type { Campaign, CampaignEvent } from '../ports/campaigns.ts';
import type { CampaignCounts } from './counts.ts';

/** A campaign's time as its views and events write it. */
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function statusData(c: Campaign) {
  return {
    campaignId: c.id,
    name: c.name,
    from: `+${c.from}`,
    status: c.status,
    reason: c.statusReason,
    timestamp: iso(c.updatedAt),
  };
}

/** A `campaign.status` event for any change; a completion also gets `campaign.completed` with its counts. */
export function campaignEvents(counts?: CampaignCounts): CampaignEvent {
  return (c) => [
    { type: 'campaign.status', data: statusData(c) },
    ...(c.status === 'COMPLETED' && counts
      ? [
          {
            type: 'campaign.completed' as const,
            data: { ...statusData(c), completedAt: iso(c.completedAt), counts },
          },
        ]
      : []),
  ];
}
