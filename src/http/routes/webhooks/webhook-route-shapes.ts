/**
 * What the webhook endpoint routes share: their dependencies (the domain's webhook endpoint service,
 * src/domain/webhook-endpoints.ts), schemas and the endpoint's wire view.
 */
import { Type } from 'typebox';
import { eventTypes } from '../../../domain/event-types.ts';
import type { WebhookEndpoint } from '../../../domain/ports/webhook-endpoints.ts';
import type { WebhookEndpointDeps } from '../../../domain/webhook-endpoints.ts';

export type WebhookRouteDeps = WebhookEndpointDeps;

export const EventTypeList = Type.Array(Type.String({ enum: [...eventTypes] }), {
  minItems: 1,
  maxItems: eventTypes.length,
  uniqueItems: true,
});
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const tags = ['webhooks'];

export function view(endpoint: WebhookEndpoint, secret?: string) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    enabled: endpoint.disabledAt === null,
    ...(secret ? { secret } : {}),
    createdAt: new Date(endpoint.createdAt).toISOString(),
    updatedAt: new Date(endpoint.updatedAt).toISOString(),
  };
}
