/**
 * `/webhooks/network`: where the network (Meta, or the simulator) reports inbound messages and statuses.
 * GET answers Meta's verification handshake (docs/cloud-api.md §3.1). POST checks `X-Hub-Signature-256` over the
 * raw bytes before parsing anything, in constant time, and fails closed (docs/cloud-api.md §3.2).
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
import type { FastifyInstance } from 'fastify';
import type { InboundDeps } from '../../../domain/inbound.ts';
import type {
  AccountRestrictionEvent,
  NetworkEvent,
  NumberQualityEvent,
  TemplateCategoryEvent,
  TemplateQualityEvent,
  TemplateStatusEvent,
} from '../../../domain/ports/network-events.ts';
import { typed } from '../../typed-app.ts';
import { registerReceiveNetworkWebhook } from './receive.ts';
import { registerVerifyNetworkWebhook } from './verify.ts';

export interface NetworkWebhookOptions {
  appSecret: string;
  verifyToken: string;
  /** The largest body accepted, in bytes; larger ones are answered 413. */
  bodyLimitBytes: number;
  /**
   * The events of a parsed body in the network's format, or the words of the rule it breaks (a 400).
   * The composition root passes the network module's reader (src/network/webhook-events.ts).
   */
  readEvents(body: unknown, now: number): NetworkEvent[] | string;
  /** Template reviews, category changes and quality ratings (docs/cloud-api.md §3.6). */
  onTemplateStatus(event: TemplateStatusEvent): Promise<void>;
  onTemplateCategory(event: TemplateCategoryEvent): Promise<void>;
  onTemplateQuality(event: TemplateQualityEvent): Promise<void>;
  /** A business number's quality or messaging limit changed: its campaigns may have to pause. */
  onNumberQuality(event: NumberQualityEvent): Promise<void>;
  /** A WhatsApp Business Account can no longer start conversations: its numbers' campaigns pause (§3.9). */
  onAccountRestriction(event: AccountRestrictionEvent): Promise<void>;
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
    registerVerifyNetworkWebhook(typed(scope), options.verifyToken);
    registerReceiveNetworkWebhook(typed(scope), options, deps);
  });
}
