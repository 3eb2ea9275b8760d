/**
 * A Flows API failure (reference §6.6) as the error the client sees: the network's code and words kept,
 * classified by kind and code (never by text), so the client knows whether to fix, wait or retry.
 */
import type { NetworkFailure } from '../../network/port.ts';
import { GatewayError } from '../errors.ts';

/** Flow state errors of the network (139001 update, 139002 publish, 139003 deprecate, 139004 delete). */
const FLOW_STATE_CODES = new Set([139001, 139002, 139003, 139004]);

export function flowNetworkError(action: string, failure: NetworkFailure): GatewayError {
  const reason = `(#${failure.code}) ${failure.details}`;
  if (failure.kind === 'unknown_outcome') {
    return new GatewayError(
      failure.title === 'network timeout' ? 'network_timeout' : 'network_error',
      `The network did not confirm the ${action} (${failure.title}: ${failure.details}); check the flow before retrying`,
    );
  }
  if (failure.kind === 'transient') {
    // As for sends (docs/adr/0010): 503 when the rate is the cause, 502 when the network failed.
    const throttled = failure.throttled === true;
    const tries = failure.attempts ? ` (${failure.attempts} attempts)` : '';
    return new GatewayError(
      throttled ? 'network_unavailable' : 'network_error',
      `The network is ${throttled ? 'rate limiting flow management' : 'unavailable'} ${reason}${tries}; nothing changed, retry later`,
      { retryAfterSeconds: Math.max(1, Math.ceil((failure.retryAfterMs ?? 1000) / 1000)) },
    );
  }
  if (failure.code === 190 || failure.httpStatus === 401) {
    return new GatewayError('network_error', `The network refused the credentials of this number ${reason}`);
  }
  if (FLOW_STATE_CODES.has(failure.code)) {
    return new GatewayError('conflict', `The network refused the ${action} ${reason}`);
  }
  return new GatewayError('network_rejected', `The network refused the ${action} ${reason}`);
}
