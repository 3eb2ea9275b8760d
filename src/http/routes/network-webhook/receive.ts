/**
 * `POST /webhooks/network`: a signed batch of inbound messages, statuses, template reviews, category and
 * quality changes, number quality changes, account restrictions and users' marketing preferences. The
 * signature is checked over the raw bytes first, then the body is read (an item with an impossible value
 * is refused alone and logged, src/network/webhook-fields.ts), then its events are handled before the 200.
 */
import { handleInboundMessage, handleStatus, type InboundDeps } from '../../../domain/inbound.ts';
import { handleMarketingPreference } from '../../../domain/marketing-preferences.ts';
import { runInOrderPerKey } from '../../../domain/ordered-work.ts';
import type { NetworkEvent } from '../../../domain/ports/network-events.ts';
import { mayHoldUnstorableText, storableJson } from '../../../lib/storable-text.ts';
import type { TypedApp } from '../../typed-app.ts';
import type { NetworkWebhookOptions } from './index.ts';
import { signatureMatches } from './signature.ts';

/** Events of one batch handled at once; a batch of thousands takes seconds one by one on PostgreSQL. */
const BATCH_WIDTH = 8;

/** Events with one key keep their order: a user's messages to a number, a message's statuses. */
function orderKey(event: NetworkEvent): string {
  // A user's preference keeps its place among their messages: a STOP and a resume in one body apply in order.
  if (event.kind === 'message' || event.kind === 'marketing_preference')
    return `message:${event.phoneNumberId}:${event.userPhone ?? event.userId}`;
  if (event.kind === 'status') return `status:${event.waId}`;
  if (event.kind === 'ignored') return `ignored:${event.at}`;
  if (event.kind === 'number_quality') return `number:${event.phone}`;
  if (event.kind === 'account_restriction') return `waba:${event.wabaId}`;
  return `template:${event.templateId}`;
}

/** The events of a signed body, or the words of a 400 when the body is not JSON or not an envelope. */
function eventsOf(raw: Buffer, read: NetworkWebhookOptions['readEvents']): NetworkEvent[] | string {
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  // Text is read as it is stored (docs/contract.md, "Text"): the events published to the account's
  // endpoints then say what the store holds.
  return read(mayHoldUnstorableText(text) ? storableJson(body) : body, Date.now());
}

export function registerReceiveNetworkWebhook(
  app: TypedApp,
  options: NetworkWebhookOptions,
  deps: InboundDeps,
): void {
  app.post(
    '/webhooks/network',
    { schema: { hide: true }, bodyLimit: options.bodyLimitBytes },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['x-hub-signature-256'];
      if (!signatureMatches(options.appSecret, raw, Array.isArray(header) ? header[0] : header)) {
        request.log.warn('network webhook with a missing or wrong signature refused');
        return reply.code(401).type('text/plain').send('invalid signature');
      }
      const events = eventsOf(raw, options.readEvents);
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
        if (event.kind === 'template_status') return options.onTemplateStatus(event);
        if (event.kind === 'template_category') return options.onTemplateCategory(event);
        if (event.kind === 'template_quality') return options.onTemplateQuality(event);
        if (event.kind === 'number_quality') return options.onNumberQuality(event);
        if (event.kind === 'account_restriction') return options.onAccountRestriction(event);
        if (event.kind === 'marketing_preference') return handleMarketingPreference(deps, event);
        // Said once in the log, never dropped without a word (docs/webhooks.md): at warn when the item
        // broke a rule, as such an item is lost to the business (nothing of it could be stored).
        if (event.refused)
          request.log.warn({ at: event.at, reason: event.reason }, 'network webhook item refused');
        else request.log.info({ at: event.at, reason: event.reason }, 'network webhook item not handled');
        return Promise.resolve();
      });
      return reply.code(200).type('text/plain').send('ok');
    },
  );
}
