/**
 * Domain ports held in memory, for unit tests of domain services without a database: each keeps the
 * store's observable rules (scoping by account, guarded moves) and nothing else.
 */
import { type MessageStatus, statusRank } from '../../src/domain/message-status.ts';
import type {
  MessageClaim,
  MessagesStore,
  OutcomeSubject,
  SentMessage,
  StatusSender,
  StatusStep,
} from '../../src/domain/ports/messages.ts';
import type {
  Delivery,
  DeliveryFilter,
  NewWebhookEndpoint,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointsStore,
} from '../../src/domain/ports/webhook-endpoints.ts';

export class InMemoryWebhookEndpoints implements WebhookEndpointsStore {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly deliveries = new Map<string, Delivery & { accountId: string; endpointId: string }>();
  readonly replays: { endpointId: string; events: string[]; since: number; limit: number }[] = [];
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
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
  ) {
    return [...this.deliveries.values()]
      .filter((d) => d.accountId === accountId && d.endpointId === endpointId)
      .filter((d) => filter.status === undefined || d.status === filter.status)
      .filter((d) => filter.eventType === undefined || d.eventType === filter.eventType)
      .slice(page.offset, page.offset + page.limit);
  }
  async insertEventForEndpoint(
    accountId: string,
    endpointId: string,
    event: { type: string; data: unknown },
    now: number,
  ) {
    const id = `dlv_${++this.#n}`;
    const payload = JSON.stringify({
      type: event.type,
      timestamp: new Date(now).toISOString(),
      data: event.data,
    });
    this.deliveries.set(id, {
      id,
      accountId,
      endpointId,
      eventId: `evt_${this.#n}`,
      eventType: event.type,
      status: 'pending',
      nextAttemptAt: now,
      createdAt: now,
      payload,
      attempts: [],
    });
    return id;
  }
  async redeliverOfAccount(accountId: string, endpointId: string, deliveryId: string, now: number) {
    const d = this.deliveries.get(deliveryId);
    if (!d || d.accountId !== accountId || d.endpointId !== endpointId) return false;
    Object.assign(d, { status: 'pending', nextAttemptAt: now });
    return true;
  }
  async replaySinceOfAccount(endpoint: WebhookEndpoint, since: number, _now: number, limit: number) {
    this.replays.push({ endpointId: endpoint.id, events: endpoint.events, since, limit });
    return { queued: 3, next: null };
  }
}

/**
 * Sent messages in memory, with the guarded moves of src/store/messages-repo.ts and
 * src/store/unsettled-messages.ts: one claim per (account, messageId), statuses only forward, FAILED final.
 */
export class InMemoryMessages implements MessagesStore {
  readonly messages: SentMessage[] = [];
  readonly steps = new Map<string, StatusStep[]>();

  #byId(id: string) {
    return this.messages.find((m) => m.id === id);
  }
  #move(m: SentMessage, status: MessageStatus, at: number, error: string | null) {
    Object.assign(m, { status, statusRank: statusRank(status), error, updatedAt: at });
    this.steps.set(m.id, [...(this.steps.get(m.id) ?? []), { status, at, error }]);
  }
  #advance(m: SentMessage | undefined, status: MessageStatus, at: number, error: string | null) {
    if (!m || m.status === 'FAILED' || m.statusRank >= statusRank(status)) return false;
    this.#move(m, status, at, error);
    return true;
  }
  #isOpen(m: SentMessage, id: string, sender: StatusSender) {
    return (
      m.id === id &&
      m.status === 'PENDING' &&
      m.waId === null &&
      m.fromPhone === sender.phone &&
      (sender.accountId === null || m.accountId === sender.accountId)
    );
  }

  async reserve(claim: MessageClaim) {
    const holder = this.messages.find(
      (m) => m.accountId === claim.accountId && m.clientMessageId === claim.clientMessageId,
    );
    if (holder) return { ...holder };
    this.messages.push({ ...claim, status: 'PENDING', statusRank: 0, waId: null, error: null });
    return null;
  }
  async findByClientId(accountId: string, clientMessageId: string) {
    const found = this.messages.find(
      (m) => m.accountId === accountId && m.clientMessageId === clientMessageId,
    );
    return found && { ...found };
  }
  async findByNetworkId(waId: string) {
    const found = this.messages.find((m) => m.waId === waId);
    return found && { ...found };
  }
  async release(id: string) {
    const at = this.messages.findIndex((m) => m.id === id && m.status === 'PENDING');
    if (at >= 0) this.messages.splice(at, 1);
  }
  async markAccepted({ id }: OutcomeSubject, waId: string, at: number) {
    const m = this.#byId(id);
    if (m && this.#advance(m, 'SENT', at, null)) m.waId = waId;
  }
  async markFailed({ id }: OutcomeSubject, at: number, error: string) {
    this.#advance(this.#byId(id), 'FAILED', at, error);
  }
  async applyNetworkStatus(waId: string, status: MessageStatus, at: number, error: string | null) {
    const m = this.messages.find((message) => message.waId === waId);
    this.#advance(m, status, at, error);
    return m !== undefined;
  }
  async timeline(messageId: string) {
    return [...(this.steps.get(messageId) ?? [])];
  }
  async markUnknown(id: string, at: number, error: string) {
    const m = this.#byId(id);
    if (m?.status !== 'PENDING' || m.error !== null) return false;
    Object.assign(m, { error, updatedAt: at });
    return true;
  }
  async findOpenFor(id: string, sender: StatusSender) {
    const found = this.messages.find((m) => this.#isOpen(m, id, sender));
    return found && { ...found };
  }
  async settleFromNetwork(id: string, sender: StatusSender, waId: string, at: number) {
    const m = this.messages.find((message) => this.#isOpen(message, id, sender));
    if (!m) return false;
    this.#move(m, 'SENT', at, null);
    m.waId = waId;
    return true;
  }
  async listUnsettled(abandonedBefore: number, unknownBefore: number, limit: number) {
    return this.messages
      .filter(
        (m) =>
          m.status === 'PENDING' &&
          ((m.error === null && m.createdAt <= abandonedBefore) ||
            (m.error !== null && m.updatedAt <= unknownBefore)),
      )
      .slice(0, limit)
      .map((m) => ({ ...m }));
  }
  async failUnsettled(id: string, at: number, error: string) {
    const m = this.#byId(id);
    if (m?.status !== 'PENDING' || m.waId !== null || m.error === null) return false;
    this.#move(m, 'FAILED', at, error);
    return true;
  }
}
