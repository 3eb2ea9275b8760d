/**
 * The webhook endpoints store: an account's endpoints and the deliveries made to them, in the domain's
 * terms (src/store/webhook-endpoints-store.ts maps the rows). Every query is scoped by account.
 */

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  /** The event types the endpoint receives. */
  events: string[];
  /** The signing secret, sealed with the install's key (src/lib/sealed-secrets.ts). */
  secretSealed: string;
  /** After a rotation, the previous secret keeps signing until `previousSecretUntil`. */
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
  disabledAt: number | null;
  failingSince: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewWebhookEndpoint = Pick<WebhookEndpoint, 'accountId' | 'url' | 'events' | 'secretSealed'>;
export type WebhookEndpointChanges = Partial<
  Pick<
    WebhookEndpoint,
    | 'url'
    | 'events'
    | 'disabledAt'
    | 'failingSince'
    | 'secretSealed'
    | 'previousSecretSealed'
    | 'previousSecretUntil'
  >
>;

export interface DeliveryAttempt {
  at: number;
  statusCode: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}

/** One event's delivery to one endpoint, with its attempts in the order they were made. */
export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  nextAttemptAt: number;
  createdAt: number;
  /** The body posted: the event as JSON, byte for byte what the endpoint receives. */
  payload: string;
  attempts: DeliveryAttempt[];
}

/** Which of an endpoint's deliveries a list keeps. */
export interface DeliveryFilter {
  status?: string | undefined;
  eventType?: string | undefined;
}

export interface WebhookEndpointsStore {
  createEndpoint(endpoint: NewWebhookEndpoint, now: number): Promise<WebhookEndpoint>;
  /** Oldest first. */
  listEndpointsOfAccount(accountId: string): Promise<WebhookEndpoint[]>;
  findEndpointOfAccount(accountId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** False when the account has no such endpoint. */
  updateEndpointOfAccount(
    accountId: string,
    id: string,
    changes: WebhookEndpointChanges,
    now: number,
  ): Promise<boolean>;
  /** Deletes the endpoint with its delivery history; false when the account has no such endpoint. */
  deleteEndpointOfAccount(accountId: string, id: string): Promise<boolean>;
  /** Newest first, those the filter keeps, from `offset`. */
  listDeliveriesOfEndpoint(
    accountId: string,
    endpointId: string,
    filter: DeliveryFilter,
    page: { offset: number; limit: number },
  ): Promise<Delivery[]>;
  /**
   * Writes an event of `type` for the one endpoint, whatever event types it takes, and queues its
   * delivery (a test). Answers the delivery's id.
   */
  insertEventForEndpoint(
    accountId: string,
    endpointId: string,
    event: { type: string; data: unknown },
    now: number,
  ): Promise<string>;
  /** Puts a delivery back in the queue now, keeping its attempt history; false when there is none such. */
  redeliverOfAccount(
    accountId: string,
    endpointId: string,
    deliveryId: string,
    now: number,
  ): Promise<boolean>;
  /**
   * Queues a new delivery to the endpoint for each event of its types since `since`, oldest first, leaving
   * out events with a delivery to it still pending, at most `limit` of them: how many, and the time of the
   * first event left for a later call (null when none is).
   */
  replaySinceOfAccount(
    endpoint: WebhookEndpoint,
    since: number,
    now: number,
    limit: number,
  ): Promise<{ queued: number; next: number | null }>;
}
