/**
 * The WhatsApp Cloud API connector: the same code for Meta's Graph API and for the built-in simulator
 * (decisions §1), over Node's fetch with keep-alive and a timeout on every call.
 */
import { failureFromGraphResponse } from './graph-errors.ts';
import type { CloudMessage, NetworkConnector, NumberCredentials, SendResult } from './port.ts';

export interface CloudConnectorOptions {
  /** Graph base URL without version, e.g. https://graph.facebook.com; a function when known only after listen. */
  baseUrl: string | (() => string);
  apiVersion: string;
  timeoutMs: number;
}

/** Error codes of a connection that was never made: the network cannot have received anything. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function causeCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

export function createCloudConnector(options: CloudConnectorOptions): NetworkConnector {
  const base = typeof options.baseUrl === 'function' ? options.baseUrl : () => options.baseUrl as string;

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
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${credentials.accessToken}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        const code = causeCode(error);
        if (code && NOT_CONNECTED.has(code)) {
          return {
            ok: false,
            failure: {
              kind: 'transient',
              code: 0,
              httpStatus: 0,
              title: 'network unreachable',
              details: code,
            },
          };
        }
        const timedOut = (error as Error).name === 'TimeoutError';
        // The request may have reached the network: retrying could deliver the message twice.
        return {
          ok: false,
          failure: {
            kind: 'unknown_outcome',
            code: 0,
            httpStatus: 0,
            title: timedOut ? 'network timeout' : 'network connection lost',
            details: timedOut
              ? `no answer within ${options.timeoutMs} ms`
              : (code ?? (error as Error).message),
          },
        };
      }
      const text = await response.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page: classified by HTTP status below.
      }
      if (response.ok) {
        const id = (parsed as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
        if (typeof id === 'string') return { ok: true, waId: id };
        return {
          ok: false,
          failure: {
            kind: 'unknown_outcome',
            code: 0,
            httpStatus: response.status,
            title: 'unexpected network answer',
            details: text.slice(0, 200),
          },
        };
      }
      return {
        ok: false,
        failure: failureFromGraphResponse(response.status, parsed, response.headers.get('retry-after')),
      };
    },
  };
}
