/**
 * The one port through which the gateway reaches the messaging network.
 *
 * The Cloud API connector implements it for Meta and for the built-in simulator alike, so the code path the
 * tests exercise is the production one (docs/contract.md §1). The port is deliberately narrow: a capability the
 * network lacks is simply not on it, instead of a method that throws.
 */

/** What the gateway needs from a business number to act on the network in its name. */
export interface NumberCredentials {
  /** Graph phone-number id (a numeric string). */
  phoneNumberId: string;
  /** Bearer token for the Graph API; never logged. */
  accessToken: string;
  /**
   * The number's throughput tier on the network, in messages per second (Meta: 80 by default, up to 1,000),
   * when it was set for this number; otherwise the gateway's default (NETWORK_MAX_SENDS_PER_SECOND).
   */
  maxSendsPerSecond?: number;
}

/**
 * A Cloud API message body without the envelope keys (`messaging_product`, `recipient_type`, `to`):
 * `{ type: 'text', text: { body } }`, `{ type: 'interactive', interactive: {...} }`, ...
 */
export interface CloudMessage {
  type: string;
  [typeObject: string]: unknown;
}

/**
 * What happened, as a closed set that code decides by; `title` and `details` are words (the network's, or
 * written for people) and may change at any time.
 * - `unreachable`: no connection could be made, so nothing was sent;
 * - `timeout`: no answer within the time allowed, after the request may have been sent;
 * - `connection_lost`: the connection broke before an answer arrived;
 * - `graph`: the network answered with a Graph error (`{ error: {...} }`);
 * - `http`: an error status without a Graph error (a proxy's or load balancer's page, an empty body);
 * - `unexpected_answer`: a success status whose body is not what the call returns;
 * - `pacing`: the gateway's own pacing of the number refused to wait longer; nothing was sent;
 * - `media`: a media download the gateway refused or could not keep (too large, a refused URL, altered bytes);
 * - `interrupted`: the gateway stopped while sending;
 * - `internal`: the send failed inside the gateway.
 */
export type FailureCause =
  | 'unreachable'
  | 'timeout'
  | 'connection_lost'
  | 'graph'
  | 'http'
  | 'unexpected_answer'
  | 'pacing'
  | 'media'
  | 'interrupted'
  | 'internal';

/**
 * An expected failure of a network call, as a value. `kind` drives retries without string matching:
 * - `permanent`: the network refused the request; retrying the same request cannot succeed.
 * - `transient`: the network did not accept the request and said so; the same request may succeed later.
 * - `unknown_outcome`: the request may or may not have been accepted (timeout after sending); never retried
 *   blindly, because that could send the message twice.
 * What the client is told is decided from these fields in one place (src/domain/network-failure-errors.ts).
 */
export interface NetworkFailure {
  kind: 'permanent' | 'transient' | 'unknown_outcome';
  /**
   * Set where the failure is made. Never recorded: a message's stored error, its status API and its events
   * show the failure without it, as they always have (src/domain/unknown-outcomes.ts `recordedFailure`).
   */
  cause: FailureCause;
  /** The Graph error code (131047, 130429, 100, ...) or 0 for transport failures. */
  code: number;
  /** HTTP status the network answered with, or 0 when no answer arrived. */
  httpStatus: number;
  title: string;
  details: string;
  retryAfterMs?: number;
  /**
   * The sending number's rate is the cause: the network's throughput or pair-rate limit (130429, 131056,
   * HTTP 429), or the gateway's own pacing refusing to wait longer (code 0, no answer).
   */
  throttled?: boolean;
  /** How many times the request was tried before this failure (retries of what is safe to retry). */
  attempts?: number;
}

export type SendResult = { ok: true; waId: string } | { ok: false; failure: NetworkFailure };

export interface SendOptions {
  /**
   * Sent as `biz_opaque_callback_data` (at most 512 characters); the network echoes it in every status
   * webhook of the message. The gateway's own message id, so that a status can settle a send whose answer
   * was lost (docs/adr/0013-settling-unknown-outcomes.md).
   */
  callbackData?: string;
  /**
   * `interactive` (the default): a send a client is waiting for, which may wait for its paced slot as long
   * as NETWORK_MAX_PACING_WAIT_MS. `bulk`: work that can come back later (a broadcast), which only takes a
   * slot close to now, so that it never fills the number's pace ahead of interactive sends
   * (docs/adr/0020-shared-send-pacing.md).
   */
  priority?: 'interactive' | 'bulk';
  /** The caller took the first try's paced slot already (src/domain/bulk-slots.ts). */
  admitted?: boolean;
}

/** A download written to the file the caller named. */
export interface MediaDownload {
  mimeType: string;
  size: number;
  /** Hex SHA-256 of the bytes written (checked against the network's own digest when it gives one). */
  sha256: string;
}

export type MediaResult = { ok: true; media: MediaDownload } | { ok: false; failure: NetworkFailure };

/** What flow management needs: flows live in a WhatsApp Business Account (docs/cloud-api.md §6.1). */
export interface FlowAccount {
  wabaId: string;
  accessToken: string;
}

/** One problem the network found in a Flow JSON (docs/cloud-api.md §6.1 `validation_errors[]`). */
export interface NetworkFlowProblem {
  error: string;
  error_type: string;
  message: string;
  pointers?: { path?: string }[];
  [position: string]: unknown;
}

export type FlowCallResult<T> = { ok: true; value: T } | { ok: false; failure: NetworkFailure };

/** A template in the network's create shape (docs/cloud-api.md §4.2): upper-case components. */
export interface TemplateSubmission {
  name: string;
  language: string;
  category: string;
  components: unknown[];
}

/** Where templates live: a WhatsApp Business Account, reached with a number's token (docs/cloud-api.md §4.1). */
export interface TemplateAccount {
  wabaId: string;
  accessToken: string;
}

export type TemplateCallResult<T> = { ok: true; value: T } | { ok: false; failure: NetworkFailure };

/** The answer to a call that returns nothing but success. */
export type CallResult = { ok: true } | { ok: false; failure: NetworkFailure };

export interface NetworkConnector {
  /**
   * Marks a message the user sent as read (blue ticks on the user's phone), and with `typing` shows the
   * user "typing…" until the business's next message or about 25 seconds (docs/cloud-api.md §1.4).
   */
  markRead(credentials: NumberCredentials, networkMessageId: string, typing: boolean): Promise<CallResult>;
  sendMessage(
    credentials: NumberCredentials,
    to: string,
    message: CloudMessage,
    options?: SendOptions,
  ): Promise<SendResult>;
  /**
   * Takes the number's next paced slot for a send made next with `admitted` (waiting for it), or says,
   * with nothing booked, how long until one is free. Absent when the connector does not pace.
   */
  admit?(
    credentials: NumberCredentials,
    priority: 'interactive' | 'bulk',
  ): Promise<NetworkFailure | undefined>;
  /**
   * Downloads media a user sent into the new file `toFile`, as the bytes arrive (never whole in memory);
   * after a failure no file is left there. The network's links expire within minutes: callers copy at once.
   */
  fetchMedia(
    credentials: NumberCredentials,
    mediaId: string,
    maxBytes: number,
    toFile: string,
  ): Promise<MediaResult>;
  /**
   * Uploads a file to send by id (docs/cloud-api.md §5.1), read from `file.path` as it goes out (never whole
   * in memory); the network answers its media id.
   */
  uploadMedia(
    credentials: NumberCredentials,
    file: { path: string; mimeType: string; filename: string },
  ): Promise<FlowCallResult<{ mediaId: string }>>;
  /** Deletes an uploaded file from the network (docs/cloud-api.md §5.3). */
  deleteMedia(credentials: NumberCredentials, mediaId: string): Promise<CallResult>;
  /** Flows API (docs/cloud-api.md §6.1): a new DRAFT flow, without its Flow JSON yet. */
  createFlow(
    account: FlowAccount,
    flow: { name: string; categories: string[] },
  ): Promise<FlowCallResult<{ flowId: string }>>;
  /** Uploads the Flow JSON asset; the network's own validation problems come back (they block publishing). */
  uploadFlowJson(
    accessToken: string,
    flowId: string,
    flowJson: string,
  ): Promise<FlowCallResult<{ validationErrors: NetworkFlowProblem[] }>>;
  updateFlowMetadata(
    accessToken: string,
    flowId: string,
    changes: { name?: string; categories?: string[] },
  ): Promise<FlowCallResult<void>>;
  publishFlow(accessToken: string, flowId: string): Promise<FlowCallResult<void>>;
  deprecateFlow(accessToken: string, flowId: string): Promise<FlowCallResult<void>>;
  deleteFlow(accessToken: string, flowId: string): Promise<FlowCallResult<void>>;
  /**
   * Submits a template for review; the network answers its id, `PENDING`, and the category it gave the
   * template, which may not be the one asked for (docs/cloud-api.md §4.1); null when it said none.
   */
  createTemplate(
    account: TemplateAccount,
    template: TemplateSubmission,
  ): Promise<TemplateCallResult<{ id: string; status: string; category: string | null }>>;
  /** Edits a template's components or category; it goes back to review (docs/cloud-api.md §4.6). */
  editTemplate(
    accessToken: string,
    templateId: string,
    changes: { category?: string; components: unknown[] },
  ): Promise<TemplateCallResult<void>>;
  /** Deletes every language of `name`, or only the template `templateId` when given. */
  deleteTemplate(
    account: TemplateAccount,
    name: string,
    templateId?: string,
  ): Promise<TemplateCallResult<void>>;
}
