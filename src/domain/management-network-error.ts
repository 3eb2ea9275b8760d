/**
 * A failure of the network while managing templates or flows, as the error the client sees: the network's
 * code and words kept, classified by kind and code (never by text), so the client knows whether to fix,
 * wait or retry. Sends have their own mapping (send-message.ts), since a send's outcome also decides its
 * deduplication claim.
 */
import type { NetworkFailure } from '../network/port.ts';
import { GatewayError } from './errors.ts';

export interface ManagedKind {
  /** "template" or "flow", as in "rate limiting template management". */
  noun: string;
  /** What to do before retrying an action whose outcome is unknown. */
  checkFirst: string;
  /** Network codes meaning "not in this state": a 409 rather than a 422. */
  stateCodes?: ReadonlySet<number>;
}

export function managementNetworkError(
  kind: ManagedKind,
  action: string,
  failure: NetworkFailure,
): GatewayError {
  const reason = `(#${failure.code}) ${failure.details}`;
  if (failure.kind === 'unknown_outcome') {
    return new GatewayError(
      failure.title === 'network timeout' ? 'network_timeout' : 'network_error',
      `The network did not confirm the ${action} (${failure.title}: ${failure.details}); ${kind.checkFirst} before retrying`,
    );
  }
  if (failure.kind === 'transient') {
    // As for sends (docs/adr/0010): 503 when the rate is the cause, 502 when the network failed.
    const throttled = failure.throttled === true;
    const tries = failure.attempts ? ` (${failure.attempts} attempts)` : '';
    return new GatewayError(
      throttled ? 'network_unavailable' : 'network_error',
      `The network is ${throttled ? `rate limiting ${kind.noun} management` : 'unavailable'} ${reason}${tries}; nothing changed, retry later`,
      { retryAfterSeconds: Math.max(1, Math.ceil((failure.retryAfterMs ?? 1000) / 1000)) },
    );
  }
  if (failure.code === 190 || failure.httpStatus === 401) {
    return new GatewayError('network_error', `The network refused the credentials of this number ${reason}`);
  }
  if (kind.stateCodes?.has(failure.code)) {
    return new GatewayError('conflict', `The network refused the ${action} ${reason}`);
  }
  return new GatewayError('network_rejected', `The network refused the ${action} ${reason}`);
}
