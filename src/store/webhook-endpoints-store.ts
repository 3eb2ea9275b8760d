/** The webhook endpoints port (src/domain/ports/webhook-endpoints.ts) over the webhooks repository's rows. */
import type {
  Delivery,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointsStore,
} from '../domain/ports/webhook-endpoints.ts';
import type { WebhookEndpointsTable } from './schema.ts';
import type { WebhooksRepo } from './webhooks-repo.ts';

const endpointOf = (row: WebhookEndpointsTable): WebhookEndpoint => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  secretSealed: row.secret_enc,
  previousSecretSealed: row.previous_secret_enc,
  previousSecretUntil: row.previous_secret_until,
  disabledAt: row.disabled_at,
  failingSince: row.failing_since,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Only the columns a change names: an absent field leaves its column as it is. */
function columnsOf(changes: WebhookEndpointChanges): Partial<WebhookEndpointsTable> {
  const has = (key: keyof WebhookEndpointChanges) => Object.hasOwn(changes, key);
  return {
    ...(changes.url !== undefined ? { url: changes.url } : {}),
    ...(changes.events !== undefined ? { events: JSON.stringify(changes.events) } : {}),
    ...(has('disabledAt') ? { disabled_at: changes.disabledAt ?? null } : {}),
    ...(has('failingSince') ? { failing_since: changes.failingSince ?? null } : {}),
    ...(changes.secretSealed !== undefined ? { secret_enc: changes.secretSealed } : {}),
    ...(has('previousSecretSealed') ? { previous_secret_enc: changes.previousSecretSealed ?? null } : {}),
    ...(has('previousSecretUntil') ? { previous_secret_until: changes.previousSecretUntil ?? null } : {}),
  };
}

type Listed = Awaited<ReturnType<WebhooksRepo['listDeliveriesWithAttempts']>>;
type DeliveryRows = Listed['deliveries'];
type AttemptRows = Listed['attempts'];

/** Deliveries in the domain's terms, each with its attempts. */
function deliveriesWithAttempts(deliveries: DeliveryRows, attempts: AttemptRows): Delivery[] {
  return deliveries.map((d) => ({
    id: d.id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    nextAttemptAt: d.next_attempt_at,
    createdAt: d.created_at,
    payload: d.payload,
    attempts: attempts
      .filter((a) => a.delivery_id === d.id)
      .map((a) => ({
        at: a.attempted_at,
        statusCode: a.status_code,
        latencyMs: a.latency_ms,
        responseBody: a.response_body,
        error: a.error,
      })),
  }));
}

export function webhookEndpointsStore(repo: WebhooksRepo): WebhookEndpointsStore {
  return {
    async createEndpoint(endpoint, now) {
      const row = await repo.createEndpoint(
        {
          account_id: endpoint.accountId,
          url: endpoint.url,
          events: JSON.stringify(endpoint.events),
          secret_enc: endpoint.secretSealed,
        },
        now,
      );
      return endpointOf(row);
    },

    async listEndpointsOfAccount(accountId) {
      return (await repo.listEndpointsOfAccount(accountId)).map(endpointOf);
    },

    async findEndpointOfAccount(accountId, id) {
      const row = await repo.findEndpointOfAccount(accountId, id);
      return row && endpointOf(row);
    },

    updateEndpointOfAccount(accountId, id, changes, now) {
      return repo.updateEndpointOfAccount(accountId, id, columnsOf(changes), now);
    },

    deleteEndpointOfAccount(accountId, id) {
      return repo.deleteEndpointOfAccount(accountId, id);
    },

    async listDeliveriesOfEndpoint(accountId, endpointId, filter, page): Promise<Delivery[]> {
      const { deliveries, attempts } = await repo.listDeliveriesWithAttempts(
        accountId,
        endpointId,
        filter,
        page,
      );
      return deliveriesWithAttempts(deliveries, attempts);
    },

    insertEventForEndpoint(accountId, endpointId, event, now) {
      return repo.insertEventForEndpoint(accountId, endpointId, event, now);
    },

    redeliverOfAccount(accountId, endpointId, deliveryId, now) {
      return repo.redeliverOfAccount(accountId, endpointId, deliveryId, now);
    },

    replaySinceOfAccount(endpoint, since, now, limit) {
      const row = { id: endpoint.id, events: JSON.stringify(endpoint.events) };
      return repo.replaySinceOfAccount(endpoint.accountId, row, since, now, limit);
    },
  };
}
