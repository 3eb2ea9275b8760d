/**
 * Graph API calls over the connector's undici agent, with its timeout. `graphExchange` is one HTTP exchange,
 * shared by sends and management calls; `graphCall` is a management call (templates, flows) with the same
 * error classification as a send (graph-errors.ts: by code, never by text) and the same retries of what is
 * safe to retry (retry-policy.ts). A 2xx JSON object is the value; anything else is a classified failure.
 */
import { type Agent, type FormData, request } from 'undici';
import type { NetworkFailure } from '../domain/ports/network.ts';
import { deadline } from '../lib/deadline.ts';
import { failureFromGraphResponse, unexpectedAnswer } from './graph-errors.ts';
import { type RetryPolicy, withRetries } from './retry-policy.ts';

export interface GraphCallOptions {
  base: () => string;
  apiVersion: string;
  timeoutMs: number;
  agent: Agent;
  transportFailure(error: unknown, timeoutMs: number): NetworkFailure;
  retry: RetryPolicy;
}

/**
 * Who is calling, on every request to the Graph API and to its media URLs: Meta's media download reference
 * lists the header, and downloads of media URLs without one have been refused.
 */
export const GRAPH_USER_AGENT = 'Switchboard/1';

export type GraphResult<T> = { ok: true; value: T } | { ok: false; failure: NetworkFailure };

export function graphCall(
  options: GraphCallOptions,
  method: 'GET' | 'POST' | 'DELETE',
  /** Path after the version, already encoded, with its query string if any. */
  path: string,
  accessToken: string,
  body?: { json: unknown } | { form: FormData },
): Promise<GraphResult<Record<string, unknown>>> {
  return withRetries(options.retry, () => graphCallOnce(options, method, path, accessToken, body));
}

/** The answer of one exchange, read and parsed (null when not JSON, e.g. a proxy's HTML error page). */
export interface GraphAnswer {
  status: number;
  text: string;
  parsed: unknown;
  retryAfter: string | null;
}

/** One HTTP exchange with the Graph API; a transport failure (no answer) comes back classified. */
export async function graphExchange(
  options: GraphCallOptions,
  method: 'GET' | 'POST' | 'DELETE',
  /** Path after the version, already encoded, with its query string if any. */
  path: string,
  accessToken: string,
  /** `raw`: JSON serialised by the caller (a send serialises once for all its tries). */
  body?: { json: unknown } | { raw: string } | { form: FormData },
): Promise<GraphAnswer | { failure: NetworkFailure }> {
  const url = `${options.base()}/${options.apiVersion}/${path}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${accessToken}`,
    'user-agent': GRAPH_USER_AGENT,
  };
  let payload: string | FormData | undefined;
  if (body && 'form' in body) {
    payload = body.form; // undici writes the multipart boundary itself
  } else if (body) {
    headers['content-type'] = 'application/json';
    payload = 'raw' in body ? body.raw : JSON.stringify(body.json);
  }
  let status: number;
  let text: string;
  let retryAfter: string | null;
  const limit = deadline(options.timeoutMs);
  try {
    const response = await request(url, {
      method,
      headers,
      body: payload,
      dispatcher: options.agent,
      signal: limit.signal,
    });
    status = response.statusCode;
    const header = response.headers['retry-after'];
    retryAfter = typeof header === 'string' ? header : null;
    text = await response.body.text();
  } catch (error) {
    return { failure: options.transportFailure(error, options.timeoutMs) };
  } finally {
    limit.clear();
  }
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: the caller classifies it by HTTP status.
  }
  return { status, text, parsed, retryAfter };
}

async function graphCallOnce(
  options: GraphCallOptions,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  accessToken: string,
  body?: { json: unknown } | { form: FormData },
): Promise<GraphResult<Record<string, unknown>>> {
  const answer = await graphExchange(options, method, path, accessToken, body);
  if ('failure' in answer) return { ok: false, failure: answer.failure };
  const { status, text, parsed, retryAfter } = answer;
  if (status >= 200 && status < 300 && typeof parsed === 'object' && parsed !== null) {
    return { ok: true, value: parsed as Record<string, unknown> };
  }
  if (status >= 200 && status < 300) {
    return { ok: false, failure: unexpectedAnswer('permanent', status, text.slice(0, 200)) };
  }
  return { ok: false, failure: failureFromGraphResponse(status, parsed, retryAfter) };
}
