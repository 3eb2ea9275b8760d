/** What the portal's pages use: the same repositories and domain dependencies as the JSON API. */
import type { Config } from '../config/config.ts';
import type { CampaignDeps } from '../domain/campaigns/campaign-service.ts';
import type { ContactDeps } from '../domain/contacts.ts';
import type { FlowDeps } from '../domain/flows/flow-service.ts';
import type { MediaLibrary } from '../domain/inbound-media.ts';
import type { InboxReplyDeps } from '../domain/inbox/inbox-reply.ts';
import type { OutboundMediaDeps } from '../domain/outbound-media.ts';
import type { AccountsStore } from '../domain/ports/accounts.ts';
import type { ConversationsStore } from '../domain/ports/conversations.ts';
import type { DashboardStore } from '../domain/ports/dashboard.ts';
import type { Mailer } from '../domain/ports/mailer.ts';
import type { MessageLogStore } from '../domain/ports/message-log.ts';
import type { MessagesStore } from '../domain/ports/messages.ts';
import type { NumbersStore } from '../domain/ports/numbers.ts';
import type { OptOutsStore } from '../domain/ports/opt-outs.ts';
import type { PortalStore, SessionContext } from '../domain/ports/portal.ts';
import type { PortalInvitesStore } from '../domain/ports/portal-invites.ts';
import type { TemplateDeps } from '../domain/templates/manage-templates.ts';
import type { WebhookEndpointDeps } from '../domain/webhook-endpoints.ts';
import type { PasswordHashing } from './auth/passwords.ts';

/** The stores the portal's pages read and write, as the domain declares them. */
export interface PortalStores {
  accounts: AccountsStore;
  numbers: NumbersStore;
  messages: MessagesStore;
  portalInvites: PortalInvitesStore;
  optOuts: OptOutsStore;
  /** Who joined which account's sandbox: the campaign wizard warns of recipients who did not. */
  conversations: Pick<ConversationsStore, 'sandboxAccountOf'>;
}

export interface PortalDeps {
  config: Readonly<Config>;
  repos: PortalStores;
  portal: PortalStore;
  messageLog: MessageLogStore;
  dashboard: DashboardStore;
  /** The copies of files users sent, linked from the message log. */
  media: { repo: MediaLibrary; secretKey: Buffer };
  templates: TemplateDeps;
  flows: FlowDeps & { secretKey: Buffer };
  webhooks: WebhookEndpointDeps;
  contacts: ContactDeps;
  campaigns: CampaignDeps;
  inbox: InboxReplyDeps;
  /** Files uploaded to send by id (an inbox reply's file). */
  uploads: OutboundMediaDeps;
  /** Sends the team's one-time links by email; null without SMTP_URL (the links are only shown). */
  mailer: Mailer | null;
  /** How passwords are hashed and checked (src/portal/auth/passwords.ts). */
  passwords: PasswordHashing;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in session, set by the portal before its handlers run; null when signed out. */
    portalSession: SessionContext | null;
  }
}

/** The session of a page registered behind the sign-in guard (routes.ts), where it is always set. */
export function sessionOf(request: { portalSession: SessionContext | null }): SessionContext {
  if (!request.portalSession) throw new Error('a signed-in page ran without a session');
  return request.portalSession;
}
