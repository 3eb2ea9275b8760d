/** The domain services the API, the portal and the network webhook share, each built by its own factory. */

import type { CampaignRunner } from '../../domain/campaigns/campaign-runner.ts';
import type { CampaignDeps } from '../../domain/campaigns/campaign-service.ts';
import { onNumberLimitFailure } from '../../domain/campaigns/network-signals.ts';
import type { ContactDeps } from '../../domain/contacts.ts';
import type { FlowDeps } from '../../domain/flows/flow-service.ts';
import type { InboundDeps } from '../../domain/inbound.ts';
import type { MediaLibrary } from '../../domain/inbound-media.ts';
import type { InboxReplyDeps } from '../../domain/inbox/inbox-reply.ts';
import type { MarkReadDeps } from '../../domain/mark-read.ts';
import type { OutboundMediaDeps } from '../../domain/outbound-media.ts';
import type { Sweeper } from '../../domain/outcome-sweeper.ts';
import type { Mailer } from '../../domain/ports/mailer.ts';
import type { RetentionJob } from '../../domain/retention.ts';
import type { SendDeps } from '../../domain/send-message.ts';
import type { TemplateDeps } from '../../domain/templates/manage-templates.ts';
import type { WebhookEndpointDeps } from '../../domain/webhook-endpoints.ts';
import { smtpMailer } from '../../mail/smtp-mailer.ts';
import { mediaRepo } from '../../store/media-repo.ts';
import type { Core } from '../core.ts';
import { campaignService } from './campaigns.ts';
import { flowService } from './flows.ts';
import { inboundService } from './inbound.ts';
import { inboxService } from './inbox.ts';
import { outboundMediaService } from './outbound-media.ts';
import { type LimiterFactory, rateLimiters } from './rate-limiters.ts';
import { retention } from './retention.ts';
import { receiptService, sendService } from './send.ts';
import { outcomeSweeper } from './sweeper.ts';
import { templateService } from './templates.ts';
import { webhookEndpointService } from './webhook-endpoints.ts';

export interface Services {
  send: SendDeps;
  /** Read receipts and typing indicators for received messages. */
  receipts: MarkReadDeps;
  templates: TemplateDeps;
  flows: FlowDeps;
  inbound: InboundDeps;
  webhookEndpoints: WebhookEndpointDeps;
  contacts: ContactDeps;
  campaigns: CampaignDeps;
  /** The conversations customers start, read and answered from the portal. */
  inbox: InboxReplyDeps;
  /** Email out, when SMTP_URL is set. */
  mailer: Mailer | null;
  /** Sends the running campaigns' messages on this node. */
  campaignRunner: CampaignRunner;
  /** Stored copies of the media users sent. */
  media: MediaLibrary;
  /** Media the business uploads to send by id. */
  uploads: OutboundMediaDeps;
  limiter: LimiterFactory;
  sweeper: Sweeper;
  retention: RetentionJob;
}

export function buildServices(core: Core): Services {
  const limiter = rateLimiters(core.store);
  const media = mediaRepo(core.store.db, core.config.dataDir);
  const templates = templateService(core);
  const uploads = outboundMediaService(core);
  const send = sendService(core, templates.templates, uploads.media);
  const { campaigns, runner } = campaignService(core, templates.templates, uploads.media);
  return {
    send,
    campaigns,
    campaignRunner: runner,
    inbox: inboxService(core, send),
    mailer: core.config.mail ? smtpMailer(core.config.mail) : null,
    receipts: receiptService(core),
    templates,
    flows: flowService(core),
    inbound: inboundService(core, media, limiter, (phone, code) =>
      onNumberLimitFailure(campaigns, phone, code),
    ),
    webhookEndpoints: webhookEndpointService(core),
    contacts: { contacts: core.repos.contacts },
    media,
    uploads,
    limiter,
    sweeper: outcomeSweeper(core),
    retention: retention(core),
  };
}
