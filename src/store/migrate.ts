/**
 * Runs the migrations in order, on SQLite or PostgreSQL. The list is static (no directory scanning) so the
 * set of migrations is visible in code review and works the same from any working directory.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Store } from './connect.ts';
import * as core from './migrations/2026-11-22-001-core.ts';
import * as events from './migrations/2026-11-22-002-events.ts';
import * as media from './migrations/2026-11-23-003-media.ts';
import * as templates from './migrations/2026-11-23-004-templates.ts';
import * as flows from './migrations/2026-11-23-005-flows.ts';
import * as portal from './migrations/2026-11-23-006-portal.ts';
import * as rateLimits from './migrations/2026-11-23-007-rate-limits.ts';
import * as mediaIndexes from './migrations/2026-11-23-008-media-indexes.ts';
import * as unsettledMessages from './migrations/2026-11-23-009-unsettled-messages.ts';
import * as inboundHandled from './migrations/2026-11-23-010-inbound-handled.ts';
import * as signInAttempts from './migrations/2026-11-23-011-sign-in-attempts.ts';
import * as sendSlots from './migrations/2026-11-24-701-send-slots.ts';
import * as deliveriesByEvent from './migrations/2026-11-24-702-deliveries-by-event.ts';
import * as portalInvites from './migrations/2026-11-25-801-portal-invites.ts';
import * as outboundMedia from './migrations/2026-11-25-802-outbound-media.ts';
import * as statusNetwork from './migrations/2026-11-25-803-status-network.ts';
import * as simulatorState from './migrations/2026-11-25-901-simulator-state.ts';
import * as userIds from './migrations/2026-11-25-902-user-ids.ts';
import * as optOuts from './migrations/2026-11-25-903-opt-outs.ts';
import * as contacts from './migrations/2026-11-25-904-contacts.ts';
import * as campaigns from './migrations/2026-11-26-905-campaigns.ts';
import * as messagingLimits from './migrations/2026-11-26-906-messaging-limits.ts';
import * as memberSignIns from './migrations/2026-11-26-907-member-sign-ins.ts';
import * as memberRoles from './migrations/2026-11-26-908-member-roles.ts';
import * as inbox from './migrations/2026-11-26-909-inbox.ts';
import * as memberTimeZones from './migrations/2026-11-26-910-member-time-zones.ts';
import * as earlyTemplateReviews from './migrations/2026-11-26-911-early-template-reviews.ts';
import * as inboxReplyAuthors from './migrations/2026-11-26-912-inbox-reply-authors.ts';
import * as savedReplies from './migrations/2026-11-26-913-saved-replies.ts';
import * as inboxNotes from './migrations/2026-11-26-914-inbox-notes.ts';
import * as deliveriesDueOrder from './migrations/2026-11-26-915-deliveries-due-order.ts';
import * as deliveriesPendingDue from './migrations/2026-11-26-916-deliveries-pending-due.ts';
import * as claimCandidatesFunction from './migrations/2026-11-26-917-claim-candidates-function.ts';
import * as optOutsByAccount from './migrations/2026-11-26-918-opt-outs-by-account.ts';
import * as passwordLinksNameTheirMember from './migrations/2026-11-28-919-password-links-name-their-member.ts';
import * as templateRejectionInfo from './migrations/2026-11-28-920-template-rejection-info.ts';

const migrations: Record<string, Migration> = {
  '2026-11-22-001-core': core,
  '2026-11-22-002-events': events,
  '2026-11-23-003-media': media,
  '2026-11-23-004-templates': templates,
  '2026-11-23-005-flows': flows,
  '2026-11-23-006-portal': portal,
  '2026-11-23-007-rate-limits': rateLimits,
  '2026-11-23-008-media-indexes': mediaIndexes,
  '2026-11-23-009-unsettled-messages': unsettledMessages,
  '2026-11-23-010-inbound-handled': inboundHandled,
  '2026-11-23-011-sign-in-attempts': signInAttempts,
  '2026-11-24-701-send-slots': sendSlots,
  '2026-11-24-702-deliveries-by-event': deliveriesByEvent,
  '2026-11-25-801-portal-invites': portalInvites,
  '2026-11-25-802-outbound-media': outboundMedia,
  '2026-11-25-803-status-network': statusNetwork,
  '2026-11-25-901-simulator-state': simulatorState,
  '2026-11-25-902-user-ids': userIds,
  '2026-11-25-903-opt-outs': optOuts,
  '2026-11-25-904-contacts': contacts,
  '2026-11-26-905-campaigns': campaigns,
  '2026-11-26-906-messaging-limits': messagingLimits,
  '2026-11-26-907-member-sign-ins': memberSignIns,
  '2026-11-26-908-member-roles': memberRoles,
  '2026-11-26-909-inbox': inbox,
  '2026-11-26-910-member-time-zones': memberTimeZones,
  '2026-11-26-911-early-template-reviews': earlyTemplateReviews,
  '2026-11-26-912-inbox-reply-authors': inboxReplyAuthors,
  '2026-11-26-913-saved-replies': savedReplies,
  '2026-11-26-914-inbox-notes': inboxNotes,
  '2026-11-26-915-deliveries-due-order': deliveriesDueOrder,
  '2026-11-26-916-deliveries-pending-due': deliveriesPendingDue,
  '2026-11-26-917-claim-candidates-function': claimCandidatesFunction,
  '2026-11-26-918-opt-outs-by-account': optOutsByAccount,
  '2026-11-28-919-password-links-name-their-member': passwordLinksNameTheirMember,
  '2026-11-28-920-template-rejection-info': templateRejectionInfo,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(store: Store): Promise<void> {
  const db = store.db as unknown as Kysely<unknown>;
  // Kysely's migrator looks for its bookkeeping tables in every schema unless told which one: with two
  // applications (or test runs) in one PostgreSQL database it would find the other's. Name ours.
  const schema =
    store.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  // Kysely's migrator takes a lock (an advisory lock on PostgreSQL), so nodes starting together are safe.
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
