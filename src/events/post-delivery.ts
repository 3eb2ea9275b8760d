/**
 * One webhook POST and what the receiver answered. The whole exchange (connecting, the status line and
 * reading the start of the answer) fits in the webhook timeout, so a receiver that sends its headers and
 * then trickles its body is cut like one that never answers. Of the answer only the first
 * RESPONSE_BODY_LIMIT bytes are read, for the attempt's record (docs/webhooks.md); then the connection is
 * closed, so a huge or endless answer costs one socket buffer, never memory in proportion to its size.
 * Redirects are not followed: a receiver cannot send a delivery somewhere else.
 */
import { type Dispatcher, request } from 'undici';

export const RESPONSE_BODY_LIMIT = 1024;

export interface DeliveryAnswer {
  /** The HTTP status, or null when none came (connection error, timeout). */
  status: number | null;
  /** The start of the answer as text, at most RESPONSE_BODY_LIMIT bytes; null without an answer. */
  body: string | null;
  retryAfter: string | null;
  /** Why the exchange ended early, if it did (also after a status: the answer was then cut short). */
  error: string | null;
  /** `stop` ended the exchange before any status arrived: there is no attempt to record. */
  stopped: boolean;
}

export interface PostOptions {
  agent: Dispatcher;
  timeoutMs: number;
  /** Aborted when the dispatcher stops. */
  stop: AbortSignal;
}

export async function postDelivery(
  url: string,
  headers: Record<string, string>,
  payload: string,
  options: PostOptions,
): Promise<DeliveryAnswer> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const cause = () => (timeout.aborted ? `timeout after ${options.timeoutMs} ms` : null);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, {
      method: 'POST',
      headers,
      body: payload,
      dispatcher: options.agent,
      signal: AbortSignal.any([timeout, options.stop]),
    });
  } catch (error) {
    const stopped = options.stop.aborted && !timeout.aborted;
    return { status: null, body: null, retryAfter: null, error: cause() ?? transportError(error), stopped };
  }
  const retryAfter = response.headers['retry-after'];
  const start = await readStart(response.body, RESPONSE_BODY_LIMIT);
  let error: string | null = null;
  if (start.failure !== null) {
    const why = cause() ?? (options.stop.aborted ? 'the gateway stopped' : transportError(start.failure));
    error = `${why} while reading the answer`;
  }
  return {
    status: response.statusCode,
    body: new TextDecoder().decode(start.bytes, { stream: true }), // drops a character cut in half
    retryAfter: (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? null,
    error,
    stopped: false,
  };
}

/**
 * Reads a body until `limit` bytes (or its end, or a failure). Leaving the loop early destroys the body,
 * which aborts the exchange and closes the connection: nothing more of the answer is read.
 */
async function readStart(
  body: AsyncIterable<Buffer>,
  limit: number,
): Promise<{ bytes: Buffer; failure: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let failure: unknown = null;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch (error) {
    failure = error ?? new Error('the answer was cut');
  }
  return { bytes: Buffer.concat(chunks).subarray(0, limit), failure };
}

function transportError(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  if (typeof code === 'string') return code;
  return typeof e?.message === 'string' ? e.message : String(error);
}
