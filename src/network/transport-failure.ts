/**
 * A network call that got no answer, classified by what the transport reports (its error's name and
 * code), never by its message: a connection that never opened sent nothing and may be retried; a
 * timeout or a connection broken mid-request may have delivered the request (docs/adr/0010).
 */
import type { NetworkFailure } from '../domain/ports/network.ts';

/** Error codes of a connection that never opened: the network cannot have received anything. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function transportFailure(error: unknown, timeoutMs: number): NetworkFailure {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = e.cause?.code ?? e.code;
  if (code && NOT_CONNECTED.has(code)) {
    return {
      kind: 'transient',
      cause: 'unreachable',
      code: 0,
      httpStatus: 0,
      title: 'network unreachable',
      details: code,
    };
  }
  // From here on the request may have reached the network: retrying could deliver the message twice.
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return {
      kind: 'unknown_outcome',
      cause: 'timeout',
      code: 0,
      httpStatus: 0,
      title: 'network timeout',
      details: `no answer within ${timeoutMs} ms`,
    };
  }
  return {
    kind: 'unknown_outcome',
    cause: 'connection_lost',
    code: 0,
    httpStatus: 0,
    title: 'network connection lost',
    details: code ?? e.message ?? 'unknown error',
  };
}
