/**
 * Brings the simulated network back from its state store at start: each part of the simulator gets the
 * records of its own kinds (the kinds are named beside the part that writes them). What was in motion
 * (status steps still to come, webhooks still owed) is taken up once the server listens, since the
 * receiver of those webhooks is often this very process.
 */

import { type AccountRestrictions, RESTRICTION_KIND, type Restriction } from '../account-restrictions.ts';
import { BLOCKED_KIND, type BlockedUsers } from '../blocked-users.ts';
import { CALL_KIND, type Call, type Calls } from '../calls.ts';
import type { FlowCatalog, FlowRecord } from '../flow-catalog.ts';
import { FLOW_KIND } from '../flow-catalog.ts';
import { MARKETING_STOP_KIND, type MarketingStops } from '../marketing-stops.ts';
import { MEDIA_KIND, type MediaRecord, type MediaVault } from '../media-vault.ts';
import { MESSAGING_LIMIT_KIND, type MessagingLimits, REACHED_KIND } from '../messaging-limits.ts';
import {
  type PhoneBook,
  type PhoneRecord,
  RECEIVED_KIND,
  type ReceivedMessage,
  SENT_KIND,
  type SentMessage,
} from '../phone-book.ts';
import { QR_KIND, type QrCode, type QrCodes } from '../qr-codes.ts';
import {
  type AccountSettings,
  type BusinessProfile,
  PROFILE_KIND,
  SUBSCRIBED_KIND,
} from '../routes-account.ts';
import { type StatusTimeline, TIMELINE_KIND, type TimelineRecord } from '../status-timeline.ts';
import {
  HELD_NAME_KIND,
  type HeldNameRecord,
  TEMPLATE_KIND,
  type TemplateCatalog,
} from '../templates/catalog.ts';
import type { SimTemplate } from '../templates/model.ts';
import type { TemplateReview } from '../templates/review.ts';
import { FAULTS_KIND, type FaultsRecord, type Traffic } from '../traffic.ts';
import { USER_ID_KIND, type UserIds } from '../user-ids.ts';
import { WEBHOOK_KIND, type WebhookPoster, type WebhookRecord } from '../webhook-poster.ts';
import { WINDOW_KIND, type Window, type WindowTracker } from '../window-tracker.ts';
import type { SimulatorStateStore } from './store-port.ts';

export interface RestoredParts {
  phones: PhoneBook;
  windows: WindowTracker;
  userIds: UserIds;
  settings: AccountSettings;
  qrCodes: QrCodes;
  blocked: BlockedUsers;
  marketingStops: MarketingStops;
  messagingLimits: MessagingLimits;
  restrictions: AccountRestrictions;
  calls: Calls;
  vault: MediaVault;
  flows: FlowCatalog;
  templates: TemplateCatalog;
  review: TemplateReview;
  traffic: Traffic;
  timeline: StatusTimeline;
  poster: WebhookPoster;
}

type Logger = { warn(obj: object, msg: string): void };

/** Reads every record and sorts it by kind; a record that is not JSON is skipped (and said so). */
async function recordsByKind(store: SimulatorStateStore, logger?: Logger) {
  const byKind = new Map<string, { key: string; value: unknown }[]>();
  for (const record of await store.load()) {
    let value: unknown;
    try {
      value = JSON.parse(record.value);
    } catch {
      logger?.warn({ kind: record.kind, key: record.key }, 'simulator state record skipped: not JSON');
      continue;
    }
    const list = byKind.get(record.kind) ?? [];
    list.push({ key: record.key, value });
    byKind.set(record.kind, list);
  }
  return {
    values: <T>(kind: string) => (byKind.get(kind) ?? []).map((r) => r.value as T),
    entries: <T>(kind: string) => (byKind.get(kind) ?? []).map((r) => ({ key: r.key, value: r.value as T })),
  };
}

/**
 * Restores what the store holds into the parts; returns what to start once the server listens: the
 * webhooks still owed, then the status steps still to come (whose posts queue behind them).
 */
export async function restoreState(
  store: SimulatorStateStore,
  parts: RestoredParts,
  logger?: Logger,
): Promise<() => void> {
  const records = await recordsByKind(store, logger);
  parts.vault.restore(records.values<MediaRecord>(MEDIA_KIND));
  parts.phones.restore(
    records.values<PhoneRecord<ReceivedMessage>>(RECEIVED_KIND),
    records.values<PhoneRecord<SentMessage>>(SENT_KIND),
  );
  parts.windows.restore(records.entries<Window>(WINDOW_KIND));
  parts.userIds.restore(records.entries<string>(USER_ID_KIND));
  parts.settings.restore(records.entries<BusinessProfile>(PROFILE_KIND), records.entries(SUBSCRIBED_KIND));
  parts.qrCodes.restore(records.entries<QrCode>(QR_KIND));
  parts.blocked.restore(records.entries(BLOCKED_KIND));
  parts.marketingStops.restore(records.entries(MARKETING_STOP_KIND));
  parts.restrictions.restore(records.entries<Restriction>(RESTRICTION_KIND));
  parts.messagingLimits.restore(
    records.entries<number>(MESSAGING_LIMIT_KIND),
    records.entries<number>(REACHED_KIND),
  );
  parts.calls.restore(records.values<Call>(CALL_KIND));
  parts.flows.restore(records.values<FlowRecord>(FLOW_KIND));
  parts.templates.restore(
    records.values<SimTemplate>(TEMPLATE_KIND),
    records.values<HeldNameRecord>(HELD_NAME_KIND),
  );
  // A review under way when the process stopped starts again: it takes its full delay from now.
  for (const template of parts.templates.pending()) parts.review.submit(template);
  for (const faults of records.values<FaultsRecord>(FAULTS_KIND)) parts.traffic.restore(faults);
  const postOwed = parts.poster.restore(records.values<WebhookRecord>(WEBHOOK_KIND));
  const steps = records.values<TimelineRecord>(TIMELINE_KIND);
  return () => {
    postOwed();
    parts.timeline.restore(steps);
  };
}
