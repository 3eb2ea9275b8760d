/** Campaigns (src/domain/campaigns/): managed by the API and the portal, sent by a runner on every node. */

import { type CampaignRunner, createCampaignRunner } from '../../domain/campaigns/campaign-runner.ts';
import type { CampaignDeps } from '../../domain/campaigns/campaign-service.ts';
import { withinMessagingLimit } from '../../domain/campaigns/messaging-limit.ts';
import { sendTemplate, type TemplateSendBody } from '../../domain/messages/send-template.ts';
import type { Campaign } from '../../domain/ports/campaigns.ts';
import type { OutboundMediaStore } from '../../domain/ports/outbound-media.ts';
import type { TemplatesStore } from '../../domain/ports/templates.ts';
import { type SendDeps, sendMessage } from '../../domain/send-message.ts';
import { rememberedFor } from '../../lib/short-memo.ts';
import type { Core } from '../core.ts';
import { sendService } from './send.ts';

/** How often each node looks for due and running campaigns when nothing told it to. */
const RUNNER_EVERY_MS = 1_000;

/**
 * How long a campaign's sends reuse a read of their number and template: every send of a campaign asks
 * the same; a template paused or a number removed meanwhile is seen within this.
 */
const SHARED_READS_MS = 1_000;
/** How long a campaign's counts, read for display, are shared. */
const COUNTS_SHARED_MS = 1_000;
/** How long its statuses over time are shared: a read goes through every status its messages took. */
const TIMELINE_SHARED_MS = 5_000;

/** The send pipeline for a campaign's messages: its number and template read once a second, not per send. */
function bulkSendService(
  core: Pick<Core, 'config' | 'repos' | 'sandbox' | 'secretKey' | 'connector'>,
  templates: TemplatesStore,
  uploads: Pick<OutboundMediaStore, 'findOutboundMedia'>,
): SendDeps {
  const { numbers } = core.repos;
  const findNumberOfAccount = rememberedFor(SHARED_READS_MS, (accountId: string, phone: string) =>
    numbers.findNumberOfAccount(accountId, phone),
  );
  const findByName = rememberedFor(SHARED_READS_MS, (...args: Parameters<TemplatesStore['findByName']>) =>
    templates.findByName(...args),
  );
  return sendService(
    { ...core, repos: { ...core.repos, numbers: { ...numbers, findNumberOfAccount } } },
    { ...templates, findByName },
    uploads,
  );
}

export function campaignService(
  core: Pick<Core, 'config' | 'repos' | 'sandbox' | 'secretKey' | 'wake' | 'logger' | 'connector'>,
  templates: TemplatesStore,
  uploads: Pick<OutboundMediaStore, 'findOutboundMedia'>,
): { campaigns: CampaignDeps; runner: CampaignRunner } {
  const { repos } = core;
  const send = bulkSendService(core, templates, uploads);
  const deps: CampaignDeps = {
    // Counts read for people (the API, the portal's live page) add up every recipient: a read is shared
    // for a moment by everyone watching, so watching a large campaign does not slow its sending.
    campaigns: {
      ...repos.campaigns,
      tally: rememberedFor(COUNTS_SHARED_MS, (c: Campaign) => repos.campaigns.tally(c)),
      statusesOverTime: rememberedFor(TIMELINE_SHARED_MS, (c: Campaign, from: number, bucketMs: number) =>
        repos.campaigns.statusesOverTime(c, from, bucketMs),
      ),
    },
    contacts: repos.contacts,
    templates,
    senders: { numbers: repos.numbers, sandbox: core.sandbox, secretKey: core.secretKey },
    resolveTemplate: send.resolveTemplate,
    kick: () => runner.kick(),
    wake: core.wake,
  };
  const runner = createCampaignRunner({
    ...deps,
    // The runner's counts (a completion's event) are read fresh.
    campaigns: repos.campaigns,
    messageExists: async (accountId, messageId) =>
      (await repos.messages.findByClientId(accountId, messageId)) !== undefined,
    withinLimit: (campaign, users) =>
      withinMessagingLimit(
        {
          reach: repos.numberReach,
          limitOf: async (accountId, phone) =>
            (await send.numbers.findNumberOfAccount(accountId, phone))?.messagingLimit ?? null,
        },
        campaign,
        users,
      ),
    leaseMs: core.config.campaignLeaseMs,
    everyMs: RUNNER_EVERY_MS,
    logger: core.logger,
    // A recipient taken over from a stopped node: a claim of its messageId left PENDING was that node's
    // (the lease ran out), so it is settled as interrupted at once rather than awaited (ADR 0027).
    send: (accountId, body: TemplateSendBody, { reclaimed, deadline, stillWanted }) =>
      sendMessage(reclaimed ? { ...send, abandonedClaimMs: 0 } : send, accountId, sendTemplate, body, {
        priority: 'bulk',
        deadline,
        stillWanted,
      }),
  });
  return { campaigns: deps, runner };
}
