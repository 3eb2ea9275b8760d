/**
 * The rows an event brings: on SQLite, the statements that write an event and a pending delivery to each
 * enabled endpoint of its account subscribed to its type, once the account's endpoints are read. Run as a
 * Kysely transaction's statements by insertEvent (./webhooks-repo.ts), or synchronously by
 * ./sqlite-status-with-event.ts. (PostgreSQL writes them in one statement: ./pg-event-statement.ts.)
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { newId } from '../lib/ids.ts';
import { compiledOnce } from './prepared.ts';
import type { Database, DeliveriesTable } from './schema.ts';

export interface EndpointSummary {
  id: string;
  events: string;
  disabled_at: number | null;
}

/** Runs with every status change, so on every send: compiled once. */
export const endpointsOfAccountQuery = compiledOnce(
  (db: Kysely<Database>, accountId: string) =>
    db
      .selectFrom('webhook_endpoints')
      .select(['id', 'events', 'disabled_at'])
      .where('account_id', '=', accountId),
  1,
);

const eventInsert = compiledOnce(
  (db: Kysely<Database>, id: string, accountId: string, type: string, payload: string, now: number) =>
    db.insertInto('events').values({ id, account_id: accountId, type, payload, created_at: now }),
  5,
);

/** A delivery waiting for its first attempt, due now. */
export function pendingDelivery(
  accountId: string,
  eventId: string,
  endpointId: string,
  now: number,
  id = newId('dlv', now),
): DeliveriesTable {
  return {
    id,
    account_id: accountId,
    event_id: eventId,
    endpoint_id: endpointId,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    locked_until: null,
    last_status_code: null,
    created_at: now,
    updated_at: now,
  };
}

const deliveryInsert = compiledOnce(
  (db: Kysely<Database>, id: string, accountId: string, eventId: string, endpointId: string, now: number) =>
    db.insertInto('deliveries').values(pendingDelivery(accountId, eventId, endpointId, now, id)),
  5,
);

export interface EventToWrite {
  id: string;
  accountId: string;
  type: string;
  /** Built only when the account has endpoints. */
  payload: () => string;
  /** When it is recorded: its created_at, and its deliveries' first attempt. */
  now: number;
}

/**
 * The writes of `event` given its account's `endpoints`: none for an account with no endpoint at all,
 * which keeps no events (nothing could receive or replay them, and the send path of such accounts stays
 * free of the extra writes); else the event, then a delivery per subscribed enabled endpoint.
 */
export function eventWrites(
  db: Kysely<Database>,
  endpoints: readonly EndpointSummary[],
  event: EventToWrite,
): CompiledQuery[] {
  if (endpoints.length === 0) return [];
  const { id, accountId, type, now } = event;
  const subscribed = endpoints.filter(
    (e) => e.disabled_at === null && (JSON.parse(e.events) as string[]).includes(type),
  );
  return [
    eventInsert(db, id, accountId, type, event.payload(), now),
    ...subscribed.map((e) => deliveryInsert(db, newId('dlv', now), accountId, id, e.id, now)),
  ];
}
