/**
 * The WhatsApp Cloud API connector: the same code for Meta's Graph API and for the built-in simulator
 * (decisions §1), over undici's `request` (several times cheaper per call than `fetch`, which matters on
 * the send path) with a keep-alive pool and a timeout on every call. Sends are paced per business number
 * and, like management calls, retried only when the network provably took nothing (docs/adr/0010).
 */
import { createHash } from 'node:crypto';
import { Agent, request } from 'undici';
import { cloudFlowCalls } from './cloud-flows.ts';
import { cloudTemplateCalls } from './cloud-templates.ts';
import { graphExchange } from './graph-call.ts';
import { failureFromGraphResponse } from './graph-errors.ts';
import type {
  CloudMessage,
  MediaResult,
  NetworkConnector,
  NetworkFailure,
  NumberCredentials,
  SendOptions,
  SendResult,
} from './port.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from './retry-policy.ts';
import { type PacingOptions, SendPacer } from './send-pacer.ts';

export interface CloudConnectorOptions {
  /** Graph base URL without version, e.g. https://graph.facebook.com; a function when known only after listen. */
  baseUrl: string | (() => string);
  apiVersion: string;
  timeoutMs: number;
  /** Sends per second per business number and the longest wait for a slot (default: no pacing). */
  pacing?: PacingOptions;
  /** Retries of failures that are safe to retry (default: 3 tries within 2 s). */
  retry?: RetryPolicy;
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
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const pacer = new SendPacer(options.pacing ?? { maxSendsPerSecond: 0, maxWaitMs: 0 });

  // Management calls (templates, flows) share the agent, the timeout and the failure classification.
  const graphOptions = {
    base,
    apiVersion: options.apiVersion,
    timeoutMs: options.timeoutMs,
    agent,
    transportFailure,
    retry,
  };

  /** One try of a send, classified (port.ts): no pacing, no retry. */
  async function sendOnce(credentials: NumberCredentials, body: string): Promise<SendResult> {
    const path = `${encodeURIComponent(credentials.phoneNumberId)}/messages`;
    const answer = await graphExchange(graphOptions, 'POST', path, credentials.accessToken, { raw: body });
    if ('failure' in answer) return { ok: false, failure: answer.failure };
    const { status, text, parsed, retryAfter } = answer;
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
  }

  return {
    ...cloudTemplateCalls(graphOptions),
    ...cloudFlowCalls(graphOptions),

    sendMessage(
      credentials: NumberCredentials,
      to: string,
      message: CloudMessage,
      sendOptions: SendOptions = {},
    ): Promise<SendResult> {
      const { callbackData } = sendOptions;
      const body = JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...message,
        // Last, so no message content can replace the tag the status webhooks are matched by.
        ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}),
      });
      // Every try, the first and each retry, is a send the network counts: each takes a paced slot.
      return withRetries(retry, async (remainingMs, tryNumber) => {
        const refused = await pacer.admit(
          credentials.phoneNumberId,
          tryNumber === 1 ? undefined : remainingMs,
        );
        if (refused) return { ok: false, failure: refused } as SendResult;
        return sendOnce(credentials, body);
      });
    },

    async fetchMedia(
      credentials: NumberCredentials,
      mediaId: string,
      maxBytes: number,
    ): Promise<MediaResult> {
      const headers = { authorization: `Bearer ${credentials.accessToken}` };
      const permanent = (title: string, details: string): MediaResult => ({
        ok: false,
        failure: { kind: 'permanent', code: 0, httpStatus: 0, title, details },
      });
      try {
        // Step 1 (reference §5.2): the media object, with a short-lived download URL.
        const info = await request(`${base()}/${options.apiVersion}/${encodeURIComponent(mediaId)}`, {
          method: 'GET',
          headers,
          dispatcher: agent,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const text = await info.body.text();
        let meta: { url?: unknown; mime_type?: unknown; sha256?: unknown; file_size?: unknown } | null = null;
        try {
          meta = JSON.parse(text);
        } catch {
          // Classified by status below.
        }
        if (info.statusCode < 200 || info.statusCode >= 300) {
          return { ok: false, failure: failureFromGraphResponse(info.statusCode, meta, null) };
        }
        if (typeof meta?.url !== 'string' || typeof meta.mime_type !== 'string') {
          return permanent('unexpected network answer', text.slice(0, 200));
        }
        if (typeof meta.file_size === 'number' && meta.file_size > maxBytes) {
          return permanent('media too large', `${meta.file_size} bytes; at most ${maxBytes} are kept`);
        }
        // Step 2: the bytes, with the same token, read up to the limit.
        const download = await request(meta.url, {
          method: 'GET',
          headers,
          dispatcher: agent,
          signal: AbortSignal.timeout(options.timeoutMs * 3),
        });
        if (download.statusCode !== 200) {
          await download.body.dump();
          return permanent('media download refused', `HTTP ${download.statusCode}`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of download.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            download.body.destroy();
            return permanent('media too large', `more than ${maxBytes} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
        const bytes = Buffer.concat(chunks);
        if (typeof meta.sha256 === 'string') {
          // Meta documents the digest as hex in some places and base64 in others: accept either.
          const digest = createHash('sha256').update(bytes).digest();
          if (meta.sha256 !== digest.toString('hex') && meta.sha256 !== digest.toString('base64')) {
            return permanent('media corrupted', 'the downloaded bytes do not match the network sha256');
          }
        }
        return { ok: true, media: { bytes, mimeType: meta.mime_type } };
      } catch (error) {
        return { ok: false, failure: transportFailure(error, options.timeoutMs) };
      }
    },
  };
}
