/**
 * The WhatsApp Cloud API connector: the same code for Meta's Graph API and for the built-in simulator
 * (decisions §1), over undici's `request` (several times cheaper per call than `fetch`, which matters on
 * the send path) with a keep-alive pool and a timeout on every call.
 */
import { Agent, request } from 'undici';
import { failureFromGraphResponse } from './graph-errors.ts';
import type {
  CloudMessage,
  NetworkConnector,
  NetworkFailure,
  NumberCredentials,
  SendResult,
} from './port.ts';

export interface CloudConnectorOptions {
  /** Graph base URL without version, e.g. https://graph.facebook.com; a function when known only after listen. */
  baseUrl: string | (() => string);
  apiVersion: string;
  timeoutMs: number;
}

/** Error codes of a connection that was never made: the network cannot have received anything. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function transportFailure(error: unknown, timeoutMs: number): NetworkFailure {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = e.cause?.code ?? e.code;
  if (code && NOT_CONNECTED.has(code)) {
    return { kind: 'transient', code: 0, httpStatus: 0, title: 'network unreachable', details: code };
  }
  const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
  // The request may have reached the network: retrying could deliver the message twice.
  return {
    kind: 'unknown_outcome',
    code: 0,
    httpStatus: 0,
    title: timedOut ? 'network timeout' : 'network connection lost',
    details: timedOut ? `no answer within ${timeoutMs} ms` : (code ?? e.message ?? 'unknown error'),
  };
}

export function createCloudConnector(options: CloudConnectorOptions): NetworkConnector {
  const base = typeof options.baseUrl === 'function' ? options.baseUrl : () => options.baseUrl as string;
  const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });

  return {
    async sendMessage(
      credentials: NumberCredentials,
      to: string,
      message: CloudMessage,
    ): Promise<SendResult> {
      const url = `${base()}/${options.apiVersion}/${encodeURIComponent(credentials.phoneNumberId)}/messages`;
      const body = JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...message,
      });
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        status = response.statusCode;
        const header = response.headers['retry-after'];
        retryAfter = typeof header === 'string' ? header : null;
        text = await response.body.text();
      } catch (error) {
        return { ok: false, failure: transportFailure(error, options.timeoutMs) };
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page: classified by HTTP status below.
      }
      if (status >= 200 && status < 300) {
        const id = (parsed as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
        if (typeof id === 'string') return { ok: true, waId: id };
        return {
          ok: false,
          failure: {
            kind: 'unknown_outcome',
            code: 0,
            httpStatus: status,
            title: 'unexpected network answer',
            details: text.slice(0, 200),
          },
        };
      }
      return { ok: false, failure: failureFromGraphResponse(status, parsed, retryAfter) };
    },
  };
}
