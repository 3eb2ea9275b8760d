/**
 * Campaigns and their recipients (docs/campaigns.md), in the domain's terms (src/store/campaigns-repo.ts
 * maps the rows). Every read a client can cause is scoped by account; the runner's reads (due and running
 * campaigns, claims) span accounts, as the outcome sweep's do.
 */

export const campaignStatuses = [
  'DRAFT',
  'SCHEDULED',
  'RUNNING',
  'PAUSED',
  'COMPLETED',
  'CANCELLED',
] as const;
export type CampaignStatus = (typeof campaignStatuses)[number];

/** Where one template placeholder's value comes from, and what stands in when it is empty. */
export type ValueSource =
  | { field: 'name' | 'phone' }
  | { attribute: string }
  | { column: string }
  | { value: string };
export type Placeholder = ValueSource & { fallback?: string };

export type Audience = { tags: string[] } | { contactIds: string[] } | { csv: true };

export interface CampaignTemplate {
  name: string;
  language: string;
  /** A header parameter the same for every recipient (a text, or a media header's link or upload). */
  header?: { type: string; parameter?: string; mediaUrl?: string; mediaId?: string; filename?: string };
  /** Button parameters every recipient gets (a URL button's suffix), as in a template send. */
  buttons?: { index: number; parameter: string }[];
}

export interface Campaign {
  id: string;
  accountId: string;
  name: string;
  /** The sending number, E.164 digits. */
  from: string;
  template: CampaignTemplate;
  /** One per body placeholder of the template, in order. */
  parameters: Placeholder[];
  audience: Audience;
  status: CampaignStatus;
  /** Why it is PAUSED or CANCELLED when the gateway did it (a limit, the number's quality), in words. */
  statusReason: string | null;
  startAt: number | null;
  timeZone: string | null;
  /** How many recipients the audience holds once it was read; null before. */
  total: number | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  completedAt: number | null;
}

/** Why a recipient was left out: the codes of docs/campaigns.md. */
export const skipReasons = ['opted_out', 'invalid_number', 'duplicate', 'missing_value'] as const;
export type SkipReason = (typeof skipReasons)[number];

/**
 * QUEUED: waiting; SENDING: a node holds it under a lease; DONE: its message was handed to the send
 * pipeline (the message's status tells the rest); FAILED: refused before the network (the reason says
 * why); SKIPPED: left out (a SkipReason).
 */
export type RecipientState = 'QUEUED' | 'SENDING' | 'DONE' | 'FAILED' | 'SKIPPED';

export interface NewRecipient {
  contactId: string | null;
  /** A phone number (digits) or business-scoped user id; as written for an invalid number. */
  recipient: string;
  /** The CSV line it came from. */
  line: number | null;
  variables: string[] | null;
  state: 'QUEUED' | 'SKIPPED';
  reason: SkipReason | null;
}

export interface ClaimedRecipient {
  campaignId: string;
  seq: number;
  accountId: string;
  recipient: string;
  variables: string[];
  messageId: string;
  /** Taken from a node whose lease ran out: a send it had begun is abandoned, not in progress. */
  reclaimed: boolean;
}

export interface RecipientOutcome {
  seq: number;
  state: 'DONE' | 'FAILED' | 'SKIPPED';
  reason: string | null;
  sentAt: number | null;
}

export interface RecipientRecord {
  seq: number;
  contactId: string | null;
  recipient: string;
  line: number | null;
  state: RecipientState;
  reason: string | null;
  messageId: string;
  /** The message's status once handed on (PENDING, SENT, DELIVERED, READ, FAILED); null before. */
  messageStatus: string | null;
  /** Whether the user wrote to the number after the message was sent. */
  replied: boolean;
  sentAt: number | null;
  updatedAt: number;
}

/** Recipients by what became of them: the rows of one grouped read (counts.ts adds them up). */
export interface RecipientTally {
  state: RecipientState;
  reason: string | null;
  messageStatus: string | null;
  count: number;
  replied: number;
}

/** The public filter of a recipients list (docs/campaigns.md). */
export const recipientFilters = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
  'replied',
] as const;
export type RecipientFilter = (typeof recipientFilters)[number];

export interface StatusChange {
  status: CampaignStatus;
  reason: string | null;
  at: number;
}

/** What an event about a campaign says; built by the domain, written with the change it reports. */
export type CampaignEvent = (
  campaign: Campaign,
) => { type: 'campaign.status' | 'campaign.completed'; data: unknown }[];

export interface CampaignsStore {
  insert(campaign: Campaign): Promise<void>;
  find(accountId: string, id: string): Promise<Campaign | undefined>;
  /** Newest first. */
  list(
    accountId: string,
    page: { offset: number; limit: number },
  ): Promise<{ campaigns: Campaign[]; total: number }>;
  /** Replaces a DRAFT's settings; undefined when it is no DRAFT (any more). */
  updateDraft(campaign: Campaign): Promise<Campaign | undefined>;
  delete(accountId: string, id: string): Promise<boolean>;
  /**
   * Moves the campaign to `change.status` if its status is one of `from` (else undefined, nothing done),
   * writing the events `events` names in the same transaction.
   */
  transition(
    accountId: string,
    id: string,
    from: readonly CampaignStatus[],
    change: StatusChange & { total?: number },
    events: CampaignEvent,
  ): Promise<Campaign | undefined>;
  /** Forgets the recipients read so far (an audience read again from the start). */
  clearRecipients(campaignId: string): Promise<void>;
  /** Appends recipients numbered from `firstSeq`. */
  appendRecipients(
    campaign: Campaign,
    firstSeq: number,
    recipients: NewRecipient[],
    at: number,
  ): Promise<void>;
  /** SCHEDULED campaigns whose start time has come, of every account. */
  due(now: number, limit: number): Promise<Campaign[]>;
  /** RUNNING campaigns, of every account. */
  running(limit: number): Promise<Campaign[]>;
  /** RUNNING campaigns sending from this number (of whichever accounts share it). */
  runningFrom(phone: string): Promise<Campaign[]>;
  /**
   * Takes up to `limit` recipients of a campaign, lowest first: QUEUED ones, and SENDING ones whose
   * lease ran out (their node stopped). Each is SENDING under a lease until `leaseUntil`.
   */
  claim(campaign: Campaign, now: number, leaseUntil: number, limit: number): Promise<ClaimedRecipient[]>;
  /**
   * Records what became of SENDING recipients, many in one statement (guarded: a recipient already
   * finished stays).
   */
  finish(campaignId: string, outcomes: RecipientOutcome[], at: number): Promise<void>;
  /** Gives a SENDING recipient back to the queue (nothing was sent). */
  release(campaignId: string, seq: number, at: number): Promise<void>;
  /**
   * Queues again, under a new messageId, each recipient whose message was interrupted by a stopped node
   * and then failed because no status report ever came (the network never had it: ADR 0027). Once per
   * recipient. Answers how many.
   */
  requeueInterrupted(campaign: Campaign, at: number): Promise<number>;
  /** How many recipients are QUEUED or SENDING. */
  remaining(campaignId: string): Promise<number>;
  tally(campaign: Campaign): Promise<RecipientTally[]>;
  recipients(
    campaign: Campaign,
    filter: RecipientFilter | undefined,
    page: { afterSeq: number; offset: number; limit: number },
  ): Promise<RecipientRecord[]>;
  /** How many recipients a filter keeps. */
  countRecipients(campaign: Campaign, filter: RecipientFilter | undefined): Promise<number>;
  /**
   * How many of the campaign's messages reached each status in each span of `bucketMs` from `from`
   * (bucket n holds the steps taken from `from + n * bucketMs`), from their status history.
   */
  statusesOverTime(campaign: Campaign, from: number, bucketMs: number): Promise<StatusBucket[]>;
}

/** Messages of a campaign that reached `status` within one bucket of time (campaign-timeline.ts). */
export interface StatusBucket {
  status: string;
  bucket: number;
  count: number;
}
