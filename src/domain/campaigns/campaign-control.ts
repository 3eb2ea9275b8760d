/**
 * A campaign's life (docs/campaigns.md): DRAFT → SCHEDULED → RUNNING ⇄ PAUSED → COMPLETED, or CANCELLED
 * from any state before COMPLETED. Each move is one guarded change of the stored status, written with its
 * `campaign.status` event, so a pause and a resume racing each other (or two nodes) leave one answer.
 */
import { GatewayError } from '../errors.ts';
import type { Campaign, CampaignStatus } from '../ports/campaigns.ts';
import { type AudienceReport, readContactAudience, readCsvAudience } from './audience.ts';
import { campaignEvents } from './campaign-events.ts';
import { type CampaignDeps, checkSendable, ownedCampaign } from './campaign-service.ts';

const conflict = (c: Campaign, action: string, allowed: string) =>
  new GatewayError(
    'conflict',
    `campaign ${c.id} is ${c.status}: only a campaign that is ${allowed} can be ${action}`,
  );

async function move(
  deps: CampaignDeps,
  campaign: Campaign,
  from: readonly CampaignStatus[],
  status: CampaignStatus,
  extra: { reason?: string | null; total?: number } = {},
): Promise<Campaign | undefined> {
  const at = (deps.now ?? Date.now)();
  const moved = await deps.campaigns.transition(
    campaign.accountId,
    campaign.id,
    from,
    {
      status,
      reason: extra.reason ?? null,
      at,
      ...(extra.total === undefined ? {} : { total: extra.total }),
    },
    campaignEvents(),
  );
  if (moved) {
    deps.wake();
    if (status === 'RUNNING') deps.kick();
  }
  return moved;
}

/**
 * Campaigns whose audience this process is reading (a start, an upload): a second request for the same
 * one meanwhile (a double click) is told to wait instead of reading the audience over the first.
 */
const reading = new Set<string>();

async function whileReading<T>(id: string, work: () => Promise<T>): Promise<T> {
  if (reading.has(id)) {
    throw new GatewayError(
      'conflict',
      `campaign ${id} is being started or given its audience; retry shortly`,
    );
  }
  reading.add(id);
  try {
    return await work();
  } finally {
    reading.delete(id);
  }
}

/** Reads the audience (a CSV one was uploaded before), checks the template, and runs or schedules it. */
export function startCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  return whileReading(id, () => startDraft(deps, accountId, id));
}

async function startDraft(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (campaign.status !== 'DRAFT') throw conflict(campaign, 'started', 'DRAFT');
  await checkSendable(deps, accountId, campaign, true);
  let total = campaign.total;
  if ('csv' in campaign.audience) {
    if (total === null) {
      throw new GatewayError(
        'conflict',
        `campaign ${id} has no audience yet: upload its CSV file to POST /api/v1/campaigns/${id}/audience first`,
      );
    }
  } else total = await readContactAudience(deps, campaign);
  const now = (deps.now ?? Date.now)();
  const status = campaign.startAt !== null && campaign.startAt > now ? 'SCHEDULED' : 'RUNNING';
  const moved = await move(deps, campaign, ['DRAFT'], status, { total });
  if (!moved) throw conflict(await ownedCampaign(deps, accountId, id), 'started', 'DRAFT');
  return moved;
}

export async function pauseCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (campaign.status === 'PAUSED') return campaign;
  const moved = await move(deps, campaign, ['RUNNING', 'SCHEDULED'], 'PAUSED');
  if (!moved) throw conflict(await ownedCampaign(deps, accountId, id), 'paused', 'RUNNING or SCHEDULED');
  return moved;
}

export async function resumeCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (campaign.status === 'RUNNING') return campaign;
  const now = (deps.now ?? Date.now)();
  const status =
    campaign.startedAt === null && campaign.startAt !== null && campaign.startAt > now
      ? 'SCHEDULED'
      : 'RUNNING';
  const moved = await move(deps, campaign, ['PAUSED'], status);
  if (!moved) throw conflict(await ownedCampaign(deps, accountId, id), 'resumed', 'PAUSED');
  return moved;
}

/** Stops it for good: recipients not yet sent to stay unsent (counted as queued). */
export async function cancelCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (campaign.status === 'CANCELLED') return campaign;
  const moved = await move(deps, campaign, ['DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED'], 'CANCELLED');
  if (!moved) throw conflict(await ownedCampaign(deps, accountId, id), 'cancelled', 'not COMPLETED');
  return moved;
}

/** The gateway pausing a campaign by itself (a limit reached, the number's quality): the reason is shown. */
export async function pauseWithReason(
  deps: CampaignDeps,
  campaign: Campaign,
  reason: string,
): Promise<boolean> {
  return (await move(deps, campaign, ['RUNNING'], 'PAUSED', { reason })) !== undefined;
}

/** A DRAFT's CSV audience: read as it arrives, replacing any uploaded before. */
export function uploadAudience(
  deps: CampaignDeps,
  accountId: string,
  id: string,
  rows: AsyncIterable<{ cells: Record<string, string>; line: number }>,
): Promise<{ report: AudienceReport; campaign: Campaign }> {
  return whileReading(id, () => readUpload(deps, accountId, id, rows));
}

async function readUpload(
  deps: CampaignDeps,
  accountId: string,
  id: string,
  rows: AsyncIterable<{ cells: Record<string, string>; line: number }>,
): Promise<{ report: AudienceReport; campaign: Campaign }> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (!('csv' in campaign.audience)) {
    throw new GatewayError(
      'conflict',
      `campaign ${id} has a ${'tags' in campaign.audience ? 'tags' : 'contacts'} audience: set "audience": {"csv": true} to upload a file`,
    );
  }
  if (campaign.status !== 'DRAFT') throw conflict(campaign, 'given an audience', 'DRAFT');
  const { report, total } = await readCsvAudience(deps, campaign, rows);
  const updated = await deps.campaigns.updateDraft({
    ...campaign,
    total,
    updatedAt: (deps.now ?? Date.now)(),
  });
  if (!updated) throw conflict(await ownedCampaign(deps, accountId, id), 'given an audience', 'DRAFT');
  return { report, campaign: updated };
}
