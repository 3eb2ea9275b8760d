/**
 * Webhook endpoints of an account (docs/webhooks.md), the rules the API and the portal share: the URL rule
 * (src/lib/url-guard.ts), a fresh signing secret sealed at rest, rotation with an overlap, and the 404 that
 * another account's endpoint gets, never a 403.
 */
import { decryptSecret, encryptSecret } from '../lib/sealed-secrets.ts';
import { webhookUrlProblem } from '../lib/url-guard.ts';
import { GatewayError } from './errors.ts';
import { eventTypes } from './event-types.ts';
import type {
  Delivery,
  DeliveryFilter,
  WebhookEndpoint,
  WebhookEndpointsStore,
} from './ports/webhook-endpoints.ts';
import { generateWebhookSecret } from './secrets.ts';

export interface WebhookEndpointDeps {
  endpoints: WebhookEndpointsStore;
  secretKey: Buffer;
  allowPrivateUrls: boolean;
  /** How long the previous secret keeps signing after a rotation. */
  rotationOverlapMs: number;
  wakeDispatcher(): void;
  now?: () => number;
}

const nowOf = (deps: WebhookEndpointDeps) => (deps.now ?? Date.now)();

/** What is wrong with `url` as an endpoint's URL (a phrase after "`url`"), or null when it is fine. */
export function endpointUrlProblem(deps: WebhookEndpointDeps, url: string): string | null {
  return url === '' ? 'is required' : webhookUrlProblem(url, deps.allowPrivateUrls);
}

function checkUrl(deps: WebhookEndpointDeps, url: string): void {
  const problem = endpointUrlProblem(deps, url);
  if (problem) throw new GatewayError('invalid_request', `\`url\` ${problem}`, { field: 'url' });
}

/** The account's endpoint with this id, if it has one (another account's is none). */
export function findEndpoint(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
): Promise<WebhookEndpoint | undefined> {
  return id === '' ? Promise.resolve(undefined) : deps.endpoints.findEndpointOfAccount(accountId, id);
}

/** The account's endpoint with this id; another account's, or none, is the same 404. */
export async function ownedEndpoint(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(deps, accountId, id);
  if (!endpoint) throw new GatewayError('not_found', `no webhook endpoint ${id} in this account`);
  return endpoint;
}

/** The endpoint's current signing secret, unsealed. */
export function endpointSecret(deps: WebhookEndpointDeps, endpoint: WebhookEndpoint): string {
  return decryptSecret(endpoint.secretSealed, deps.secretKey);
}

/** A new endpoint (every event type unless `events` names some) and its secret, shown to its creator. */
export async function createEndpoint(
  deps: WebhookEndpointDeps,
  accountId: string,
  input: { url: string; events?: readonly string[] | undefined },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  checkUrl(deps, input.url);
  const secret = generateWebhookSecret();
  const endpoint = await deps.endpoints.createEndpoint(
    {
      accountId,
      url: input.url,
      events: [...new Set(input.events ?? eventTypes)],
      secretSealed: encryptSecret(secret, deps.secretKey),
    },
    nowOf(deps),
  );
  return { endpoint, secret };
}

export function listEndpoints(deps: WebhookEndpointDeps, accountId: string): Promise<WebhookEndpoint[]> {
  return deps.endpoints.listEndpointsOfAccount(accountId);
}

/** Changes the URL or the event types, or enables/disables the endpoint; returns it as it is now. */
export async function updateEndpoint(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
  changes: {
    url?: string | undefined;
    events?: readonly string[] | undefined;
    enabled?: boolean | undefined;
  },
): Promise<WebhookEndpoint> {
  await ownedEndpoint(deps, accountId, id);
  if (changes.url !== undefined) checkUrl(deps, changes.url);
  const now = nowOf(deps);
  await deps.endpoints.updateEndpointOfAccount(
    accountId,
    id,
    {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.events !== undefined ? { events: [...changes.events] } : {}),
      // Re-enabling starts a fresh failure count, so the endpoint is not disabled again at once.
      ...(changes.enabled === true ? { disabledAt: null, failingSince: null } : {}),
      ...(changes.enabled === false ? { disabledAt: now } : {}),
    },
    now,
  );
  return ownedEndpoint(deps, accountId, id);
}

/** A new signing secret; the previous one keeps signing until `previousUntil`. */
export async function rotateEndpointSecret(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string; previousUntil: number }> {
  const current = await ownedEndpoint(deps, accountId, id);
  const secret = generateWebhookSecret();
  const now = nowOf(deps);
  const previousUntil = now + deps.rotationOverlapMs;
  await deps.endpoints.updateEndpointOfAccount(
    accountId,
    id,
    {
      secretSealed: encryptSecret(secret, deps.secretKey),
      previousSecretSealed: current.secretSealed,
      previousSecretUntil: previousUntil,
    },
    now,
  );
  return { endpoint: await ownedEndpoint(deps, accountId, id), secret, previousUntil };
}

/** Deletes the endpoint and its delivery history; false when the account has no such endpoint. */
export function deleteEndpoint(deps: WebhookEndpointDeps, accountId: string, id: string): Promise<boolean> {
  return deps.endpoints.deleteEndpointOfAccount(accountId, id);
}

/** Deliveries of the account's endpoint, newest first, with their attempts: those the filter keeps. */
export async function listDeliveries(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
  options: DeliveryFilter & { offset?: number; limit: number },
): Promise<Delivery[]> {
  await ownedEndpoint(deps, accountId, id);
  const { status, eventType, offset = 0, limit } = options;
  return deps.endpoints.listDeliveriesOfEndpoint(accountId, id, { status, eventType }, { offset, limit });
}

/** The type of a test event: sent to one endpoint when asked, never to those subscribed to types. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Sends the endpoint a test event (`webhook.test`), signed and delivered as any other, whatever types it
 * takes; answers the delivery's id. A disabled endpoint receives nothing, a test neither: a 409.
 */
export async function sendTestEvent(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
): Promise<{ deliveryId: string }> {
  const endpoint = await ownedEndpoint(deps, accountId, id);
  if (endpoint.disabledAt !== null)
    throw new GatewayError(
      'conflict',
      `webhook endpoint ${id} is disabled: enable it to receive events, a test too`,
    );
  const now = nowOf(deps);
  const data = {
    endpointId: id,
    message: 'A test event: nothing happened. Check its signature as for any event.',
  };
  const deliveryId = await deps.endpoints.insertEventForEndpoint(
    accountId,
    id,
    { type: TEST_EVENT_TYPE, data },
    now,
  );
  deps.wakeDispatcher();
  return { deliveryId };
}

/** Attempts one delivery again now; false when the account's endpoint has no such delivery. */
export async function redeliver(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
  deliveryId: string,
): Promise<boolean> {
  if (!(await deps.endpoints.redeliverOfAccount(accountId, id, deliveryId, nowOf(deps)))) return false;
  deps.wakeDispatcher();
  return true;
}

/**
 * The most deliveries one replay queues: an account's whole history could otherwise become one request's
 * work and millions of rows. A longer replay goes on from the time the answer gives as `next`.
 */
export const REPLAY_LIMIT = 10_000;

/**
 * Delivers again to the endpoint the events of its types since `since`, at most REPLAY_LIMIT, none still
 * pending to it: how many were queued, and the time to go on from (null when nothing is left).
 */
export async function replaySince(
  deps: WebhookEndpointDeps,
  accountId: string,
  id: string,
  since: number,
): Promise<{ queued: number; next: number | null }> {
  const endpoint = await ownedEndpoint(deps, accountId, id);
  const replayed = await deps.endpoints.replaySinceOfAccount(endpoint, since, nowOf(deps), REPLAY_LIMIT);
  if (replayed.queued > 0) deps.wakeDispatcher();
  return replayed;
}
