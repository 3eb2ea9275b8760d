/**
 * The WhatsApp Cloud API connector: the same code for Meta's Graph API and for the built-in simulator
 * (docs/contract.md §1), over undici's `request` (several times cheaper per call than `fetch`, which matters on
 * the send path) with a keep-alive pool and a timeout on every call. Sends are paced per business number
 * and, like management calls, retried only when the network provably took nothing (docs/adr/0010).
 */

import { Agent } from 'undici';
import type {
  CallResult,
  CloudMessage,
  NetworkConnector,
  NumberCredentials,
  SendOptions,
  SendResult,
} from '../domain/ports/network.ts';
import { isUserId } from '../lib/user-id.ts';
import { cloudFlowCalls } from './cloud-flows.ts';
import { cloudMediaDownloads } from './cloud-media.ts';
import { cloudMediaUploadCalls } from './cloud-media-upload.ts';
import { cloudTemplateCalls } from './cloud-templates.ts';
import { graphExchange } from './graph-call.ts';
import { failureFromGraphResponse, unexpectedAnswer } from './graph-errors.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, withRetries } from './retry-policy.ts';
import { type PacingOptions, SendPacer } from './send-pacer.ts';
import { transportFailure } from './transport-failure.ts';

export interface CloudConnectorOptions {
  /** Graph base URL without version, e.g. https://graph.facebook.com; a function when known only after listen. */
  baseUrl: string | (() => string);
  apiVersion: string;
  timeoutMs: number;
  /** Sends per second per business number and the longest wait for a slot (default: no pacing). */
  pacing?: PacingOptions;
  /** Retries of failures that are safe to retry (default: 3 tries within 2 s). */
  retry?: RetryPolicy;
  /**
   * Lets the media download URLs the network names be http:// and private addresses (default: no;
   * WEBHOOK_ALLOW_PRIVATE_URLS). The Graph base itself is always trusted.
   */
  allowPrivateMediaUrls?: boolean;
}

/** A call answered `{"success": true}`: ok, or the network's failure. */
function readAnswer(answer: Awaited<ReturnType<typeof graphExchange>>): CallResult {
  if ('failure' in answer) return { ok: false, failure: answer.failure };
  const { status, parsed, retryAfter } = answer;
  if (status >= 200 && status < 300 && (parsed as { success?: unknown } | null)?.success === true)
    return { ok: true };
  return { ok: false, failure: failureFromGraphResponse(status, parsed, retryAfter) };
}

type GraphOptions = Parameters<typeof graphExchange>[0];

/** One try of a send, classified (src/domain/ports/network.ts): no pacing, no retry. */
async function sendOnce(
  graphOptions: GraphOptions,
  credentials: NumberCredentials,
  body: string,
): Promise<SendResult> {
  const path = `${encodeURIComponent(credentials.phoneNumberId)}/messages`;
  const answer = await graphExchange(graphOptions, 'POST', path, credentials.accessToken, { raw: body });
  if ('failure' in answer) return { ok: false, failure: answer.failure };
  const { status, text, parsed, retryAfter } = answer;
  if (status >= 200 && status < 300) {
    const id = (parsed as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id;
    if (typeof id === 'string') return { ok: true, waId: id };
    return { ok: false, failure: unexpectedAnswer('unknown_outcome', status, text.slice(0, 200)) };
  }
  return { ok: false, failure: failureFromGraphResponse(status, parsed, retryAfter) };
}

/** A read receipt (docs/cloud-api.md §1.4); not a message, so the network does not pace it and nor does this. */
function markRead(
  graphOptions: GraphOptions,
  retry: RetryPolicy,
  credentials: NumberCredentials,
  networkMessageId: string,
  typing: boolean,
): Promise<CallResult> {
  const path = `${encodeURIComponent(credentials.phoneNumberId)}/messages`;
  const body = JSON.stringify({
    messaging_product: 'whatsapp',
    status: 'read',
    message_id: networkMessageId,
    ...(typing ? { typing_indicator: { type: 'text' } } : {}),
  });
  return withRetries(retry, () =>
    graphExchange(graphOptions, 'POST', path, credentials.accessToken, { raw: body }).then(readAnswer),
  );
}

/**
 * The request body of a send: the envelope, the message, and the tag its status webhooks carry back. A
 * user known only by their business-scoped user id is addressed by `recipient` (docs/cloud-api.md §10).
 */
function sendBody(to: string, message: CloudMessage, callbackData: string | undefined): string {
  return JSON.stringify({
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    ...(isUserId(to) ? { recipient: to } : { to }),
    ...message,
    // Last, so no message content can replace the tag the status webhooks are matched by.
    ...(callbackData ? { biz_opaque_callback_data: callbackData } : {}),
  });
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

  return {
    ...cloudTemplateCalls(graphOptions),
    ...cloudFlowCalls(graphOptions),
    ...cloudMediaUploadCalls(graphOptions),
    ...cloudMediaDownloads({ ...graphOptions, allowPrivateUrls: options.allowPrivateMediaUrls ?? false }),

    markRead: (credentials: NumberCredentials, networkMessageId: string, typing: boolean) =>
      markRead(graphOptions, retry, credentials, networkMessageId, typing),

    admit: (credentials: NumberCredentials, priority: 'interactive' | 'bulk') =>
      pacer.admit(credentials, undefined, priority),

    sendMessage(
      credentials: NumberCredentials,
      to: string,
      message: CloudMessage,
      sendOptions: SendOptions = {},
    ): Promise<SendResult> {
      const { callbackData, priority, admitted } = sendOptions;
      const body = sendBody(to, message, callbackData);
      // Every try, the first and each retry, is a send the network counts: each takes a paced slot.
      return withRetries(retry, async (remainingMs, tryNumber) => {
        const refused =
          tryNumber === 1 && admitted
            ? undefined
            : await pacer.admit(credentials, tryNumber === 1 ? undefined : remainingMs, priority);
        if (refused) return { ok: false, failure: refused } as SendResult;
        return sendOnce(graphOptions, credentials, body);
      });
    },
  };
}
