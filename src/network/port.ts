/**
 * The one port through which the gateway reaches the messaging network.
 *
 * The Cloud API connector implements it for Meta and for the built-in simulator alike, so the code path the
 * tests exercise is the production one (decisions §1). The port is deliberately narrow: a capability the
 * network lacks is simply not on it, instead of a method that throws.
 */

/** What the gateway needs from a business number to act on the network in its name. */
export interface NumberCredentials {
  /** Graph phone-number id (a numeric string). */
  phoneNumberId: string;
  /** Bearer token for the Graph API; never logged. */
  accessToken: string;
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
 * An expected failure of a network call, as a value. `kind` drives retries without string matching:
 * - `permanent`: the network refused the request; retrying the same request cannot succeed.
 * - `transient`: the network did not accept the request and said so; the same request may succeed later.
 * - `unknown_outcome`: the request may or may not have been accepted (timeout after sending); never retried
 *   blindly, because that could send the message twice.
 */
export interface NetworkFailure {
  kind: 'permanent' | 'transient' | 'unknown_outcome';
  /** The Graph error code (131047, 130429, 100, ...) or 0 for transport failures. */
  code: number;
  /** HTTP status the network answered with, or 0 when no answer arrived. */
  httpStatus: number;
  title: string;
  details: string;
  retryAfterMs?: number;
}

export type SendResult = { ok: true; waId: string } | { ok: false; failure: NetworkFailure };

export interface MediaDownload {
  bytes: Buffer;
  mimeType: string;
}

export type MediaResult = { ok: true; media: MediaDownload } | { ok: false; failure: NetworkFailure };

export interface NetworkConnector {
  sendMessage(credentials: NumberCredentials, to: string, message: CloudMessage): Promise<SendResult>;
  /** Downloads media a user sent (the network's links expire within minutes, so callers copy at once). */
  fetchMedia(credentials: NumberCredentials, mediaId: string, maxBytes: number): Promise<MediaResult>;
}
