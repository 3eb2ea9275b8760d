/**
 * Classifies Graph API errors by code, never by text (docs/cloud-api.md §2.3: titles are not stable).
 * - transient: the network answered that it took nothing and the same request may succeed later (a Graph
 *   error with a transient code or `is_transient`, or a throttling answer);
 * - unknown_outcome: an HTTP 5xx without a Graph error (a proxy or load balancer answered): whether the
 *   network took the request cannot be known, so it must not be repeated blindly;
 * - permanent: everything else, until the request changes.
 */
import type { NetworkFailure } from '../domain/ports/network.ts';

/** Codes that mean "not now": overload, throughput and pair-rate limits, temporary downtime. */
const TRANSIENT_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057, 133004]);
/** Codes that mean the sending number (or app) is over its rate: the answer is to slow down. */
const THROTTLE_CODES = new Set([4, 80007, 130429, 131056]);
/** The pair limit refills one message per ~6 s (docs/cloud-api.md §7): the earliest sensible retry. */
const PAIR_RETRY_MS = 6_000;

interface GraphErrorBody {
  error?: {
    message?: unknown;
    code?: unknown;
    error_data?: unknown;
    error_user_title?: unknown;
    error_user_msg?: unknown;
    is_transient?: unknown;
  };
}

/**
 * What the network says went wrong, in its most specific words: `error_data.details`, or else the words it
 * writes for people (`error_user_title`, `error_user_msg`), which are all it gives for most refusals of a
 * template or a flow (its `message` is then only "Invalid parameter"), or else its `message`.
 */
function detailsOf(error: NonNullable<GraphErrorBody['error']>, title: string): string {
  const data = error.error_data;
  if (typeof data === 'string') return data;
  const details = (data as { details?: unknown } | undefined)?.details;
  if (typeof details === 'string') return details;
  const userMessage = typeof error.error_user_msg === 'string' ? error.error_user_msg : undefined;
  const userTitle = typeof error.error_user_title === 'string' ? error.error_user_title : undefined;
  if (userMessage) return userTitle ? `${userTitle}: ${userMessage}` : userMessage;
  return userTitle ?? title;
}

export function failureFromGraphResponse(
  httpStatus: number,
  body: unknown,
  retryAfter: string | null,
): NetworkFailure {
  const error = (body as GraphErrorBody | null)?.error;
  const code = typeof error?.code === 'number' ? error.code : 0;
  const title = typeof error?.message === 'string' ? error.message : `HTTP ${httpStatus}`;
  const details = error ? detailsOf(error, title) : title;
  const throttled = THROTTLE_CODES.has(code) || httpStatus === 429;
  const graphSaysTransient = TRANSIENT_CODES.has(code) || error?.is_transient === true;
  const kind: NetworkFailure['kind'] =
    graphSaysTransient || throttled
      ? 'transient'
      : httpStatus >= 500 && code === 0
        ? 'unknown_outcome'
        : 'permanent';
  // A body without a Graph error object (a proxy's page, nothing at all) is an answer of HTTP alone.
  const cause = typeof error === 'object' && error !== null ? 'graph' : 'http';
  const failure: NetworkFailure = { kind, cause, code, httpStatus, title, details };
  if (throttled) failure.throttled = true;
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) failure.retryAfterMs = seconds * 1000;
  else if (code === 131056) failure.retryAfterMs = PAIR_RETRY_MS;
  return failure;
}

/**
 * A success the gateway cannot read (no JSON object, no id where one must be): `permanent` for management
 * calls, which change nothing the gateway relies on, `unknown_outcome` for a send, which may have gone out.
 */
export function unexpectedAnswer(
  kind: 'permanent' | 'unknown_outcome',
  httpStatus: number,
  details: string,
): NetworkFailure {
  return {
    kind,
    cause: 'unexpected_answer',
    code: 0,
    httpStatus,
    title: 'unexpected network answer',
    details,
  };
}
