/**
 * Campaigns as the API and the portal manage them (docs/campaigns.md): made as a DRAFT, changed while a
 * draft, read with live counts, listed, deleted when not under way. Starting and stopping them is
 * campaign-control.ts; sending is campaign-runner.ts.
 */
import { newId } from '../../lib/ids.ts';
import { isUserId } from '../../lib/user-id.ts';
import { GatewayError } from '../errors.ts';
import { sendTemplate, type TemplateSendBody } from '../messages/send-template.ts';
import type { Campaign, CampaignsStore } from '../ports/campaigns.ts';
import type { TemplatesStore } from '../ports/templates.ts';
import type { SendDeps } from '../send-message.ts';
import { numberCredentials, type SenderDeps } from '../senders.ts';
import { isSendableTemplateStatus } from '../templates/sendable-statuses.ts';
import type { AudienceDeps } from './audience.ts';
import { type CampaignInput, type CampaignSettings, campaignSettings } from './campaign-input.ts';
import { type CampaignCounts, countsOf } from './counts.ts';
import { sampleValues } from './placeholders.ts';

export interface CampaignDeps extends AudienceDeps {
  campaigns: CampaignsStore;
  templates: Pick<TemplatesStore, 'findByName'>;
  senders: Pick<SenderDeps, 'numbers' | 'sandbox' | 'secretKey'>;
  /** The template send's own check of a template and its parameters (templates/resolve-template-send.ts). */
  resolveTemplate: SendDeps['resolveTemplate'];
  /** Tells the runner of this node that a campaign may have work (it also looks by itself). */
  kick(): void;
  /** Tells the webhook dispatcher that events wait. */
  wake(): void;
  now?: () => number;
}

export const notFound = (id: string) => new GatewayError('not_found', `no campaign ${id} in this account`);

export async function ownedCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<Campaign> {
  const campaign = await deps.campaigns.find(accountId, id);
  if (!campaign) throw notFound(id);
  return campaign;
}

export type { TemplateSendBody };

/** The template send one recipient gets: the campaign's template with the recipient's values. */
export function templateSendBody(
  campaign: Campaign,
  recipient: string,
  values: string[],
  messageId: string,
): TemplateSendBody {
  const { name, language, header, buttons } = campaign.template;
  return {
    messageId,
    from: `+${campaign.from}`,
    to: isUserId(recipient) ? recipient : `+${recipient}`,
    template: {
      name,
      language,
      components: {
        ...(header ? { header } : {}),
        ...(buttons?.length ? { buttons } : {}),
        ...(values.length ? { body: { parameters: values } } : {}),
      },
    },
  };
}

/** A template send's field as a campaign names it. */
function campaignField(sendField: string): string {
  if (sendField.startsWith('template.components.body')) return 'parameters';
  return sendField.replace('template.components.', 'template.');
}

/** The number is the account's, the template is its, and the placeholders fit it; each refusal names its field. */
async function checkSendable(
  deps: CampaignDeps,
  accountId: string,
  campaign: Campaign,
  needApproved: boolean,
) {
  await numberCredentials(deps.senders, accountId, campaign.from, 'from');
  const { name, language } = campaign.template;
  const template = await deps.templates.findByName(accountId, campaign.from, name, language);
  if (!template) {
    throw new GatewayError(
      'invalid_request',
      `\`template\`: +${campaign.from} has no template "${name}" in ${language}`,
      { field: 'template.name' },
    );
  }
  if (!isSendableTemplateStatus(template.status) && !needApproved) return;
  const body = templateSendBody(campaign, campaign.from, sampleValues(campaign.parameters), 'check');
  const checked = sendTemplate.normalize(body);
  try {
    if (!checked.ok) throw new GatewayError('invalid_request', checked.message, { field: checked.field });
    await deps.resolveTemplate(accountId, campaign.from, checked.value, campaign.from);
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code === 'opted_out') throw error;
    // The send's words name the send's fields; a campaign's are `parameters` and `template.*`.
    const field = campaignField(error.field ?? 'template');
    const message = error.message.replace(
      /`(template\.components\.[a-z.]+)/g,
      (_, f: string) => `\`${campaignField(f)}`,
    );
    throw new GatewayError(error.code, message, { field });
  }
}

/** A new DRAFT with these settings (not stored). */
export function draftCampaign(
  accountId: string,
  settings: CampaignSettings,
  now: number,
  id = newId('cmp', now),
): Campaign {
  return {
    id,
    accountId,
    ...settings,
    status: 'DRAFT',
    statusReason: null,
    total: null,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    completedAt: null,
  };
}

export async function createCampaign(
  deps: CampaignDeps,
  accountId: string,
  input: CampaignInput,
): Promise<Campaign> {
  const now = (deps.now ?? Date.now)();
  const campaign = draftCampaign(accountId, campaignSettings(input, now), now);
  await checkContacts(deps, campaign);
  await checkSendable(deps, accountId, campaign, false);
  await deps.campaigns.insert(campaign);
  return campaign;
}

async function checkContacts(deps: CampaignDeps, campaign: Campaign) {
  if (!('contactIds' in campaign.audience)) return;
  for (const [i, id] of campaign.audience.contactIds.entries()) {
    if (!(await deps.contacts.find(campaign.accountId, id))) {
      throw new GatewayError(
        'invalid_request',
        `\`audience.contactIds[${i}]\`: no contact ${id} in this account`,
        { field: `audience.contactIds[${i}]` },
      );
    }
  }
}

export async function updateCampaign(
  deps: CampaignDeps,
  accountId: string,
  id: string,
  input: CampaignInput,
) {
  const current = await ownedCampaign(deps, accountId, id);
  if (current.status !== 'DRAFT') {
    throw new GatewayError('conflict', `campaign ${id} is ${current.status}: only a DRAFT can be changed`);
  }
  const now = (deps.now ?? Date.now)();
  const next: Campaign = { ...current, ...campaignSettings(input, now, current), updatedAt: now };
  // A new audience kind drops an uploaded file: it no longer says who the recipients are.
  const audienceChanged = JSON.stringify(next.audience) !== JSON.stringify(current.audience);
  if (audienceChanged || input.parameters) next.total = null;
  await checkContacts(deps, next);
  await checkSendable(deps, accountId, next, false);
  const updated = await deps.campaigns.updateDraft(next);
  if (!updated)
    throw new GatewayError('conflict', `campaign ${id} was started meanwhile: only a DRAFT can be changed`);
  if (next.total === null) await deps.campaigns.clearRecipients(id);
  return updated;
}

export async function campaignWithCounts(
  deps: CampaignDeps,
  accountId: string,
  id: string,
): Promise<{ campaign: Campaign; counts: CampaignCounts }> {
  const campaign = await ownedCampaign(deps, accountId, id);
  return { campaign, counts: countsOf(await deps.campaigns.tally(campaign)) };
}

export async function deleteCampaign(deps: CampaignDeps, accountId: string, id: string): Promise<void> {
  const campaign = await ownedCampaign(deps, accountId, id);
  if (['SCHEDULED', 'RUNNING', 'PAUSED'].includes(campaign.status)) {
    throw new GatewayError('conflict', `campaign ${id} is ${campaign.status}: cancel it before deleting it`);
  }
  await deps.campaigns.delete(accountId, id);
}

export { checkSendable };
