/**
 * A template management failure of the network as the error the client sees: the network's code and words
 * kept, classified by kind (never by text), so the client knows whether to fix, wait or retry.
 */
import type { NetworkFailure } from '../../network/port.ts';
import { GatewayError } from '../errors.ts';

export function templateNetworkError(action: string, failure: NetworkFailure): GatewayError {
  const reason = `(#${failure.code}) ${failure.details}`;
  if (failure.kind === 'unknown_outcome') {
    return new GatewayError(
      failure.title === 'network timeout' ? 'network_timeout' : 'network_error',
      `The network did not confirm the ${action} (${failure.title}: ${failure.details}); list the templates before retrying`,
    );
  }
  if (failure.kind === 'transient') {
    // As for sends (docs/adr/0010): 503 when the rate is the cause, 502 when the network failed.
    const throttled = failure.throttled === true;
    const tries = failure.attempts ? ` (${failure.attempts} attempts)` : '';
    return new GatewayError(
      throttled ? 'network_unavailable' : 'network_error',
      `The network is ${throttled ? 'rate limiting template management' : 'unavailable'} ${reason}${tries}; nothing changed, retry later`,
      { retryAfterSeconds: Math.max(1, Math.ceil((failure.retryAfterMs ?? 1000) / 1000)) },
    );
  }
  if (failure.code === 190 || failure.httpStatus === 401) {
    return new GatewayError('network_error', `The network refused the credentials of this number ${reason}`);
  }
  return new GatewayError('network_rejected', `The network refused the ${action} ${reason}`);
}
