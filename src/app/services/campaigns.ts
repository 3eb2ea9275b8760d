/** Campaigns (src/domain/campaigns/): managed by the API and the portal, sent by a runner on every node. */

import { type CampaignRunner, createCampaignRunner } from '../../domain/campaigns/campaign-runner.ts';
import type { CampaignDeps } from '../../domain/campaigns/campaign-service.ts';
import { sendTemplate, type TemplateSendBody } from '../../domain/messages/send-template.ts';
import { type SendDeps, sendMessage } from '../../domain/send-message.ts';
import type { Core } from '../core.ts';

/** How often each node looks for due and running campaigns when nothing told it to. */
const RUNNER_EVERY_MS = 1_000;

export function campaignService(
  core: Pick<Core, 'config' | 'repos' | 'sandbox' | 'secretKey' | 'wake' | 'logger'>,
  send: SendDeps,
  templates: CampaignDeps['templates'],
): { campaigns: CampaignDeps; runner: CampaignRunner } {
  const { repos } = core;
  const deps: CampaignDeps = {
    campaigns: repos.campaigns,
    contacts: repos.contacts,
    templates,
    senders: { numbers: repos.numbers, sandbox: core.sandbox, secretKey: core.secretKey },
    resolveTemplate: send.resolveTemplate,
    kick: () => runner.kick(),
    wake: core.wake,
  };
  const runner = createCampaignRunner({
    ...deps,
    messageExists: async (accountId, messageId) =>
      (await repos.messages.findByClientId(accountId, messageId)) !== undefined,
    leaseMs: core.config.campaignLeaseMs,
    everyMs: RUNNER_EVERY_MS,
    logger: core.logger,
    // A recipient taken over from a stopped node: a claim of its messageId left PENDING was that node's
    // (the lease ran out), so it is settled as interrupted at once rather than awaited (ADR 0027).
    send: (accountId, body: TemplateSendBody, { reclaimed, deadline }) =>
      sendMessage(reclaimed ? { ...send, abandonedClaimMs: 0 } : send, accountId, sendTemplate, body, {
        priority: 'bulk',
        deadline,
      }),
  });
  return { campaigns: deps, runner };
}
