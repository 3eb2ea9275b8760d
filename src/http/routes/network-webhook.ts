/**
 * `/webhooks/network`: where the network (Meta, or the simulator) reports inbound messages and statuses.
 * GET answers Meta's verification handshake (reference §3.1). POST checks `X-Hub-Signature-256` over the
 * raw bytes before parsing anything, in constant time, and fails closed (reference §3.2).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { handleInboundMessage, handleStatus, type InboundDeps } from '../../domain/inbound.ts';
import { readWebhookEvents, type TemplateStatusEvent } from '../../network/webhook-events.ts';

export interface NetworkWebhookOptions {
  appSecret: string;
  verifyToken: string;
  /** Template reviews (reference §3.6). */
  onTemplateStatus(event: TemplateStatusEvent): Promise<void>;
}

export function signatureMatches(appSecret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
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

    scope.post('/webhooks/network', { schema: { hide: true } }, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['x-hub-signature-256'];
      if (!signatureMatches(options.appSecret, raw, Array.isArray(header) ? header[0] : header)) {
        request.log.warn('network webhook with a missing or wrong signature refused');
        return reply.code(401).type('text/plain').send('invalid signature');
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return reply.code(400).type('text/plain').send('body is not JSON');
      }
      // Handled before answering: a 200 tells the network it may forget the event, so it must be stored
      // first. A failure answers 500 and the network delivers again (handling is idempotent per id).
      for (const event of readWebhookEvents(body)) {
        if (event.kind === 'message') await handleInboundMessage(deps, event);
        else if (event.kind === 'status') await handleStatus(deps, event);
        else await options.onTemplateStatus(event);
      }
      return reply.code(200).type('text/plain').send('ok');
    });
  });
}
