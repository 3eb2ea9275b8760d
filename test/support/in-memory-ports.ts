/**
 * Domain ports held in memory, for unit tests of domain services without a database: each keeps the
 * store's observable rules (scoping by account, guarded moves) and nothing else.
 */
import type {
  Delivery,
  NewWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointsStore,
} from '../../src/domain/ports/webhook-endpoints.ts';

export class InMemoryWebhookEndpoints implements WebhookEndpointsStore {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly deliveries = new Map<string, Delivery & { accountId: string; endpointId: string }>();
  readonly replays: { endpointId: string; events: string[]; since: number }[] = [];
  #n = 0;

  async createEndpoint(endpoint: NewWebhookEndpoint, now: number): Promise<WebhookEndpoint> {
    const created: WebhookEndpoint = {
      ...endpoint,
      id: `whk_${++this.#n}`,
      previousSecretSealed: null,
      previousSecretUntil: null,
      disabledAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    this.endpoints.push(created);
    return { ...created };
  }
  async listEndpointsOfAccount(accountId: string) {
    return this.endpoints.filter((e) => e.accountId === accountId).map((e) => ({ ...e }));
  }
  async findEndpointOfAccount(accountId: string, id: string) {
    const found = this.endpoints.find((e) => e.accountId === accountId && e.id === id);
    return found && { ...found };
  }
  async updateEndpointOfAccount(accountId: string, id: string, changes: WebhookEndpointChanges, now: number) {
    const found = this.endpoints.find((e) => e.accountId === accountId && e.id === id);
    if (found) Object.assign(found, changes, { updatedAt: now });
    return found !== undefined;
  }
  async deleteEndpointOfAccount(accountId: string, id: string) {
    const at = this.endpoints.findIndex((e) => e.accountId === accountId && e.id === id);
    if (at >= 0) this.endpoints.splice(at, 1);
    return at >= 0;
  }
  async listDeliveriesOfEndpoint(
    accountId: string,
    endpointId: string,
    status: string | undefined,
    limit: number,
  ) {
    return [...this.deliveries.values()]
      .filter((d) => d.accountId === accountId && d.endpointId === endpointId)
      .filter((d) => status === undefined || d.status === status)
      .slice(0, limit);
  }
  async redeliverOfAccount(accountId: string, endpointId: string, deliveryId: string, now: number) {
    const d = this.deliveries.get(deliveryId);
    if (!d || d.accountId !== accountId || d.endpointId !== endpointId) return false;
    Object.assign(d, { status: 'pending', nextAttemptAt: now });
    return true;
  }
  async replaySinceOfAccount(endpoint: WebhookEndpoint, since: number) {
    this.replays.push({ endpointId: endpoint.id, events: endpoint.events, since });
    return 3;
  }
}
