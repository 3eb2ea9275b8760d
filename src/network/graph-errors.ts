/**
 * Classifies Graph API errors by code, never by text (reference §2.3: titles are not stable).
 * Transient = the same request may succeed later; everything else is permanent until the request changes.
 */
import type { NetworkFailure } from './port.ts';

/** Codes that mean "not now": overload, throughput and pair-rate limits, temporary downtime. */
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057, 133004]);

interface GraphErrorBody {
  error?: {
    message?: unknown;
    code?: unknown;
    error_data?: unknown;
    is_transient?: unknown;
  };
}

export function failureFromGraphResponse(
  httpStatus: number,
  body: unknown,
  retryAfter: string | null,
): NetworkFailure {
  const error = (body as GraphErrorBody | null)?.error;
  const code = typeof error?.code === 'number' ? error.code : 0;
  const title = typeof error?.message === 'string' ? error.message : `HTTP ${httpStatus}`;
  const data = error?.error_data;
  const details =
    typeof data === 'string'
      ? data
      : typeof (data as { details?: unknown } | undefined)?.details === 'string'
        ? (data as { details: string }).details
        : title;
  const transient =
    TRANSIENT_CODES.has(code) || error?.is_transient === true || httpStatus >= 500 || httpStatus === 429;
  const failure: NetworkFailure = {
    kind: transient ? 'transient' : 'permanent',
    code,
    httpStatus,
    title,
    details,
  };
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) failure.retryAfterMs = seconds * 1000;
  return failure;
}
