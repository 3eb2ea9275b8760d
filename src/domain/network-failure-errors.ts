/**
 * The one mapping of network failures (src/domain/ports/network.ts) to the errors clients see, for sends and for
 * template and flow management alike. It decides by the failure's typed fields (kind, cause, Graph code,
 * HTTP status, throttled), never by its words: titles are the network's text or written for people.
 *
 * Callers word the message for what they did and add only the rules that are theirs: a send refused for a
 * closed conversation (send-network-error.ts), a flow not in the state an action needs
 * (management-network-error.ts). The statuses follow docs/adr/0010 (503 when the rate is the cause, 502
 * when the network failed, 422 when it refused) and docs/adr/0013 (an unknown outcome: 504 after a
 * timeout, else 502).
 */

import { GatewayError } from './errors.ts';
import type { NetworkFailure } from './ports/network.ts';

/** What a failure means for the client. */
export type FailureVerdict =
  /** The network may or may not have acted: check before repeating the request. */
  | { is: 'unconfirmed'; timedOut: boolean }
  /**
   * Nothing was taken because of the number's rate: the network's limit, or (`byPacing`) the gateway's own
   * pacing, which refused to wait longer for the number's next slot.
   */
  | { is: 'rate_limited'; byPacing: boolean; retryAfterSeconds: number }
  /** The network failed and took nothing; the same request may succeed later. */
  | { is: 'unavailable'; retryAfterSeconds: number }
  /** The network refused the token (Graph code 190, or HTTP 401). */
  | { is: 'credentials_refused' }
  /** The network refused the request as it is: repeating it unchanged cannot succeed. */
  | { is: 'refused' };

/** The error code of each verdict; its HTTP status follows from the catalogue (errors.ts). */
const ERROR_CODES = {
  rate_limited: 'network_unavailable',
  unavailable: 'network_error',
  credentials_refused: 'network_error',
  refused: 'network_rejected',
} as const;

export function judgeFailure(failure: NetworkFailure): FailureVerdict {
  if (failure.kind === 'unknown_outcome') return { is: 'unconfirmed', timedOut: failure.cause === 'timeout' };
  if (failure.kind === 'transient') {
    const retryAfterSeconds = Math.max(1, Math.ceil((failure.retryAfterMs ?? 1000) / 1000));
    const byPacing = failure.cause === 'pacing';
    if (byPacing || failure.throttled) return { is: 'rate_limited', byPacing, retryAfterSeconds };
    return { is: 'unavailable', retryAfterSeconds };
  }
  if (failure.code === 190 || failure.httpStatus === 401) return { is: 'credentials_refused' };
  return { is: 'refused' };
}

/**
 * The error a verdict is answered with, in the caller's words; a retry's wait rides along when known, and
 * the network's error code when it gave one.
 */
export function networkFailureError(verdict: FailureVerdict, message: string, networkCode = 0): GatewayError {
  const code = networkCode ? { networkCode } : {};
  if (verdict.is === 'unconfirmed')
    return new GatewayError(verdict.timedOut ? 'network_timeout' : 'network_error', message, code);
  if (verdict.is === 'rate_limited' || verdict.is === 'unavailable') {
    return new GatewayError(ERROR_CODES[verdict.is], message, {
      retryAfterSeconds: verdict.retryAfterSeconds,
      ...code,
    });
  }
  return new GatewayError(ERROR_CODES[verdict.is], message, code);
}

/** ` (3 attempts)` when the request was retried before this failure, else nothing. */
export function attemptsNote(failure: NetworkFailure): string {
  return failure.attempts ? ` (${failure.attempts} attempts)` : '';
}
