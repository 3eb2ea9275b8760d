/**
 * `/webhooks/network`: where the network (Meta, or the simulator) reports inbound messages and statuses.
 * GET answers Meta's verification handshake (reference §3.1). POST checks `X-Hub-Signature-256` over the
 * raw bytes before parsing anything, in constant time, and fails closed (reference §3.2).
 *
 * A signed body is then checked whole before any of it is handled (src/network/webhook-events.ts, the
 * rules in docs/webhooks.md): a body holding an impossible value (a timestamp of `"1e20"`, an id that is
 * not a string, a message nested a thousand levels deep) is answered 400 naming the field and the rule,
 * and nothing of it is stored. Values the real network can vary on are clamped, not refused: a time
 * ahead of the gateway's clock, or more than 30 days old, is taken as the arrival time; a profile name
 * is cut to 256 characters; a message type the gateway does not know is kept as `unsupported`. No rule
 * depends on the time of arrival, so a redelivery of a refused body is refused the same way.
 *
 * Bodies may be up to NETWORK_WEBHOOK_BODY_LIMIT_BYTES (3 MiB by default): the network batches many
 * messages and statuses into one POST, and the API's smaller BODY_LIMIT_BYTES does not apply here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { handleInboundMessage, handleStatus, type InboundDeps } from '../../domain/inbound.ts';
import { runInOrderPerKey } from '../../domain/ordered-work.ts';
import {
  type NetworkEvent,
  readWebhookEvents,
  type TemplateStatusEvent,
  WebhookFieldError,
} from '../../network/webhook-events.ts';

export interface NetworkWebhookOptions {
  appSecret: string;
  verifyToken: string;
  /** The largest body accepted, in bytes; larger ones are answered 413. */
  bodyLimitBytes: number;
  /** Template reviews (reference §3.6). */
  onTemplateStatus(event: TemplateStatusEvent): Promise<void>;
}

export function signatureMatches(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Events of one batch handled at once; a batch of thousands takes seconds one by one on PostgreSQL. */
const BATCH_WIDTH = 8;

/** Events with one key keep their order: a user's messages to a number, a message's statuses. */
function orderKey(event: NetworkEvent): string {
  if (event.kind === 'message') return `message:${event.phoneNumberId}:${event.userPhone}`;
  if (event.kind === 'status') return `status:${event.waId}`;
  return `template:${event.templateId}`;
}

/** The events of a signed body, or the words of a 400 when the body is not JSON or breaks a rule. */
function eventsOf(raw: Buffer): NetworkEvent[] | string {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return 'body is not JSON';
  }
  try {
    return readWebhookEvents(body, Date.now());
  } catch (error) {
    if (error instanceof WebhookFieldError) return error.message;
    throw error;
  }
}

export async function registerNetworkWebhook(
  app: FastifyInstance,
  options: NetworkWebhookOptions,
  deps: InboundDeps,
) {
  await app.register(async (scope) => {
    // Raw bytes, not parsed JSON: the signature covers the exact bytes, which re-serialising would change.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    scope.get('/webhooks/network', { schema: { hide: true } }, async (request, reply) => {
      const q = request.query as Record<string, string | undefined>;
      if (
        q['hub.mode'] === 'subscribe' &&
        q['hub.verify_token'] === options.verifyToken &&
        q['hub.challenge']
      ) {
        return reply.type('text/plain').send(q['hub.challenge']);
      }
      return reply.code(403).type('text/plain').send('verification failed');
    });

    scope.post(
      '/webhooks/network',
      { schema: { hide: true }, bodyLimit: options.bodyLimitBytes },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-hub-signature-256'];
        if (!signatureMatches(options.appSecret, raw, Array.isArray(header) ? header[0] : header)) {
          request.log.warn('network webhook with a missing or wrong signature refused');
          return reply.code(401).type('text/plain').send('invalid signature');
        }
        const events = eventsOf(raw);
        if (typeof events === 'string') {
          request.log.warn({ reason: events }, 'signed network webhook refused');
          return reply.code(400).type('text/plain').send(events);
        }
        // Handled before answering: a 200 tells the network it may forget the event, so it must be
        // handled first. A failure answers 500 and the network delivers again; handling is idempotent
        // per id, and a message stored but not yet published is completed by that redelivery.
        await runInOrderPerKey(events, orderKey, BATCH_WIDTH, (event) => {
          if (event.kind === 'message') return handleInboundMessage(deps, event);
          if (event.kind === 'status') return handleStatus(deps, event);
          return options.onTemplateStatus(event);
        });
        return reply.code(200).type('text/plain').send('ok');
      },
    );
  });
}
