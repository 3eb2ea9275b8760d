/**
 * Row types of every table, as Kysely sees them. Times are epoch milliseconds (bigint on PostgreSQL, read
 * back as numbers), JSON is stored as text so one schema serves SQLite and PostgreSQL alike.
 */
import type {
  CampaignRecipientsTable,
  CampaignsTable,
  ContactsTable,
  ContactTagsTable,
  InboxConversationsTable,
  InboxNotesTable,
  InboxReplyAuthorsTable,
  NumberReachTable,
  OptOutsTable,
  SavedRepliesTable,
} from './schema-campaigns.ts';
import type { EarlyTemplateReviewsTable, TemplateMediaTable, TemplatesTable } from './schema-templates.ts';

export interface AccountsTable {
  id: string;
  name: string;
  join_code: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** The visible start of the key, for people to tell keys apart; never enough to use it. */
  prefix: string;
  /** SHA-256 hex of the whole key: the key itself is never stored. */
  hash: string;
  created_at: number;
  revoked_at: number | null;
}

/** Each number's next free send slot when nodes share the pace (docs/adr/0020-shared-send-pacing.md). */
export interface SendSlotsTable {
  phone_number_id: string;
  /** Epoch milliseconds (a float) when the number's bucket would be empty again. */
  tat: number;
}

export interface BusinessNumbersTable {
  id: string;
  account_id: string;
  /** E.164 digits. */
  phone: string;
  phone_number_id: string;
  /** Network access token, AES-256-GCM encrypted with the gateway's secret key. */
  access_token_enc: string;
  /** 0 = the gateway does not enforce the 24-hour window for this number (it may not see its inbound). */
  session_check: number;
  /** The WhatsApp Business Account the number belongs to (flows are created there); null if not given. */
  waba_id?: string | null;
  /** The number's throughput tier in messages per second; null = the gateway's default. */
  max_sends_per_second?: number | null;
  /** Meta's messaging limit of the number (unique users in 24 hours); null = unlimited. */
  messaging_limit?: number | null;
  created_at: number;
}

export interface SandboxMembersTable {
  sandbox_phone: string;
  user_phone: string;
  account_id: string;
  joined_at: number;
}

export interface ConversationWindowsTable {
  business_phone: string;
  user_phone: string;
  last_inbound_at: number;
}

export interface MessagesTable {
  id: string;
  account_id: string;
  /** The client's `messageId`: unique per account, forever (docs/contract.md §3). */
  client_message_id: string;
  /** SHA-256 of the canonical request: tells a replay from a conflicting reuse of a messageId. */
  request_hash: string;
  kind: string;
  from_phone: string;
  to_phone: string;
  content: string;
  wa_id: string | null;
  status: string;
  /** Orders statuses so a late network status never moves a message backwards. */
  status_rank: number;
  error: string | null;
  created_at: number;
  updated_at: number;
}

export interface MessageStatusEventsTable {
  id: string;
  message_id: string;
  status: string;
  at: number;
  error: string | null;
}

/**
 * A network status whose message the gateway has not linked to a network id yet: the network may report
 * `sent` before the send call has returned. Applied as soon as the id is recorded.
 */
export interface UnmatchedStatusesTable {
  id: string;
  wa_id: string;
  status: string;
  at: number;
  error: string | null;
  /** The network's status object as it arrived, as JSON (migration 2026-11-25-803). */
  network: string | null;
}

export interface InboundMessagesTable {
  id: string;
  /** Null when no account could be found (e.g. a stranger writing to the sandbox without joining). */
  account_id: string | null;
  /** The network's message id: the network may deliver one webhook more than once. */
  wa_id: string;
  business_phone: string;
  /** The user's key: their phone number, or their business-scoped user id when the number is unknown. */
  user_phone: string;
  /** Nullable: rows from before business-scoped ids were read have none. */
  user_id: string | null;
  username: string | null;
  profile_name: string | null;
  type: string;
  payload: string;
  received_at: number;
  /**
   * When the message was handled to the end: account assigned and `message.received` written together
   * (or found to be nobody's). Null while a delivery is handling it, or after one was interrupted.
   */
  handled_at: number | null;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of subscribed event types. */
  events: string;
  /** The signing secret (`whsec_...`), encrypted: it must be read back to sign, so it cannot be hashed. */
  secret_enc: string;
  /** The secret before the last rotation, still signing until `previous_secret_until`. */
  previous_secret_enc: string | null;
  previous_secret_until: number | null;
  disabled_at: number | null;
  /** Start of the current run of failed attempts; null after any success. */
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: string;
  account_id: string;
  type: string;
  payload: string;
  created_at: number;
}

export interface DeliveriesTable {
  id: string;
  account_id: string;
  event_id: string;
  endpoint_id: string;
  status: string;
  attempt_count: number;
  next_attempt_at: number;
  /** A dispatcher's claim: other nodes leave the row alone until this time passes. */
  locked_until: number | null;
  last_status_code: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: number;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

export interface MediaFilesTable {
  id: string;
  account_id: string;
  /** The network's media id the file was fetched with. */
  network_media_id: string;
  mime_type: string;
  size: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
  /** Path relative to DATA_DIR. */
  path: string;
  created_at: number;
}

/** Counters for integer ids that must be unique across gateway nodes (one row per counter). */
export interface IdCountersTable {
  name: string;
  value: number;
}

export interface FlowsTable {
  /** Integer assigned by the gateway (docs/contract.md §4), from the `flows` counter. */
  id: number;
  account_id: string;
  /** The business or sandbox number the flow was created for (E.164 digits). */
  phone: string;
  name: string;
  /** JSON array of Meta flow categories. */
  categories: string;
  status: 'DRAFT' | 'PUBLISHED' | 'DEPRECATED';
  /** The network's flow id. */
  wa_flow_id: string;
  /** The Flow JSON as uploaded (its text, so the network and the preview see the same bytes). */
  flow_json: string;
  /** JSON array of the network's validation errors; non-empty blocks publishing. */
  validation_errors: string;
  created_at: number;
  updated_at: number;
}

/** A person who signs in to the customer portal; one account may have several. */
/** Media uploaded to send by id (migration 2026-11-25-802). */
export interface OutboundMediaTable {
  id: string;
  account_id: string;
  phone: string;
  network_media_id: string;
  media_type: string;
  mime_type: string;
  size: number;
  created_at: number;
}

/** One-time links into the portal (migration 2026-11-25-801), by the SHA-256 of their token. */
export interface PortalInvitesTable {
  token_hash: string;
  account_id: string;
  /** Lower-cased; null when whoever opens the link chooses it. */
  email: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The role of the member the link adds; null: owner. */
  role?: string | null;
  /** The member whose password the link sets; null: the link adds a member. */
  user_id?: string | null;
}

export interface PortalUsersTable {
  id: string;
  account_id: string;
  /** Lower-cased; unique across the gateway. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts): the parameters travel with the hash. */
  password_hash: string;
  created_at: number;
  /** When the user last signed in (migration 2026-11-26-907); null before the first time since. */
  last_sign_in_at?: number | null;
  /** owner, admin, agent or developer (src/domain/roles.ts; migration 2026-11-26-908). */
  role?: string;
  /** An IANA time zone the user reads times in (migration 2026-11-26-910); null: the browser's. */
  time_zone?: string | null;
}

/** A signed-in browser. The cookie holds the token; only its SHA-256 is stored. */
export interface PortalSessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  /** Every form of the session carries it; a POST without it is refused. */
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
  /** Idle expiry: pushed forward as the session is used. */
  expires_at: number;
}

/**
 * One email's sign-in attempts (whether or not a user has it): attempts count as failures from the moment
 * they are made until one succeeds, which deletes the row (src/store/portal-repo.ts).
 */
export interface PortalLockoutsTable {
  email: string;
  /** Attempts counted in the window that started at `window_started_at`. */
  failures: number;
  window_started_at: number;
  /** Sign-in is refused until then; 0 = not locked. */
  locked_until: number;
}

/** One API key's rate-limit state on PostgreSQL: its theoretical arrival time, epoch milliseconds. */
export interface RateLimitsTable {
  key_id: string;
  tat: number;
}

/** Which phone number goes with which business-scoped user id, per business number (docs/cloud-api.md §10). */
export interface NetworkUsersTable {
  business_phone: string;
  user_id: string;
  phone: string | null;
  username: string | null;
  updated_at: number;
}

/** The in-process simulator's state (src/store/simulator-state-repo.ts): JSON records by kind and key. */
export interface SimulatorRecordsTable {
  kind: string;
  key: string;
  value: string;
}

export type {
  CampaignRecipientsTable,
  CampaignsTable,
  ContactsTable,
  ContactTagsTable,
  EarlyTemplateReviewsTable,
  NumberReachTable,
  OptOutsTable,
  TemplateMediaTable,
  TemplatesTable,
};

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  business_numbers: BusinessNumbersTable;
  number_reach: NumberReachTable;
  send_slots: SendSlotsTable;
  sandbox_members: SandboxMembersTable;
  conversation_windows: ConversationWindowsTable;
  messages: MessagesTable;
  message_status_events: MessageStatusEventsTable;
  inbound_messages: InboundMessagesTable;
  unmatched_statuses: UnmatchedStatusesTable;
  webhook_endpoints: WebhookEndpointsTable;
  events: EventsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  media_files: MediaFilesTable;
  templates: TemplatesTable;
  early_template_reviews: EarlyTemplateReviewsTable;
  template_media: TemplateMediaTable;
  id_counters: IdCountersTable;
  flows: FlowsTable;
  portal_users: PortalUsersTable;
  portal_invites: PortalInvitesTable;
  outbound_media: OutboundMediaTable;
  portal_sessions: PortalSessionsTable;
  portal_lockouts: PortalLockoutsTable;
  rate_limits: RateLimitsTable;
  simulator_records: SimulatorRecordsTable;
  network_users: NetworkUsersTable;
  opt_outs: OptOutsTable;
  contacts: ContactsTable;
  contact_tags: ContactTagsTable;
  campaigns: CampaignsTable;
  campaign_recipients: CampaignRecipientsTable;
  inbox_conversations: InboxConversationsTable;
  inbox_reply_authors: InboxReplyAuthorsTable;
  saved_replies: SavedRepliesTable;
  inbox_notes: InboxNotesTable;
}
