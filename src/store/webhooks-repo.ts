/**
 * Webhook endpoints, the event outbox and deliveries. Every query that a client can reach is scoped by
 * account; the dispatcher's claims (delivery-claims.ts) are the one unscoped query.
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { newId } from '../lib/ids.ts';
import type { Dialect } from './connect.ts';
import { deliveryAttempts } from './delivery-attempts.ts';
import { deliveryClaims } from './delivery-claims.ts';
import { endpointsOfAccountQuery, eventWrites, pendingDelivery } from './event-writes.ts';
import { insertEventInOneStatement } from './pg-event-statement.ts';
import type { Database, DeliveriesTable, DeliveryAttemptsTable, WebhookEndpointsTable } from './schema.ts';

export type EndpointRow = WebhookEndpointsTable;
export type DeliveryRow = DeliveriesTable;
export type AttemptRow = DeliveryAttemptsTable;

/** An event as every endpoint receives it (docs/webhooks.md, "The event envelope"). */
export function eventPayload(type: string, now: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: new Date(now).toISOString(), data });
}

/**
 * Writes one event and a pending delivery to every enabled endpoint of the account subscribed to its type.
 * Call it inside the transaction of the change the event reports (the outbox pattern).
 */
export async function insertEvent(
  db: Kysely<Database>,
  accountId: string,
  type: string,
  /** The event's data; a function when building it costs work that is wasted without endpoints. */
  data: unknown | (() => unknown),
  at: number,
): Promise<string | null> {
  // The event's own time is when it was recorded (it orders events and deliveries); `at`, the time of
  // what happened (the network's, in whole seconds), stays in the data.
  const now = Math.max(Date.now(), at);
  const id = newId('evt', now);
  const payloadOf = () => eventPayload(type, now, typeof data === 'function' ? data() : data);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // One round trip instead of three; the payload is built even for an account without endpoints, a few
    // microseconds against a round trip.
    const event = { accountId, type, id, payload: payloadOf(), at: now };
    return (await insertEventInOneStatement(db, event)) ? id : null;
  }
  const { rows: endpoints } = await db.executeQuery(endpointsOfAccountQuery(db, accountId));
  const writes = eventWrites(db, endpoints, { id, accountId, type, payload: payloadOf, now });
  for (const write of writes) await db.executeQuery(write);
  return writes.length > 0 ? id : null;
}

/** An event for one endpoint only (a test), whatever types it takes, with its delivery; the delivery's id. */
export async function insertEventForEndpoint(
  db: Kysely<Database>,
  accountId: string,
  endpointId: string,
  event: { type: string; data: unknown },
  now: number,
): Promise<string> {
  const id = newId('evt', now);
  const payload = eventPayload(event.type, now, event.data);
  const delivery = pendingDelivery(accountId, id, endpointId, now);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('events')
      .values({ id, account_id: accountId, type: event.type, payload, created_at: now })
      .execute();
    await trx.insertInto('deliveries').values(delivery).execute();
  });
  return delivery.id;
}

class WebhooksRepository {
  readonly #db: Kysely<Database>;
  readonly #dialect: Dialect;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.#db = db;
    this.#dialect = dialect;
  }

  async createEndpoint(
    row: Omit<
      EndpointRow,
      | 'id'
      | 'created_at'
      | 'updated_at'
      | 'previous_secret_enc'
      | 'previous_secret_until'
      | 'disabled_at'
      | 'failing_since'
    >,
    now: number,
  ): Promise<EndpointRow> {
    const full: EndpointRow = {
      ...row,
      id: newId('whk', now),
      previous_secret_enc: null,
      previous_secret_until: null,
      disabled_at: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.#db.insertInto('webhook_endpoints').values(full).execute();
    return full;
  }

  listEndpointsOfAccount(accountId: string): Promise<EndpointRow[]> {
    return this.#db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute();
  }

  findEndpointOfAccount(accountId: string, id: string): Promise<EndpointRow | undefined> {
    return this.#db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async updateEndpointOfAccount(
    accountId: string,
    id: string,
    patch: Partial<
      Pick<
        EndpointRow,
        | 'url'
        | 'events'
        | 'disabled_at'
        | 'failing_since'
        | 'secret_enc'
        | 'previous_secret_enc'
        | 'previous_secret_until'
      >
    >,
    now: number,
  ): Promise<boolean> {
    const r = await this.#db
      .updateTable('webhook_endpoints')
      .set({ ...patch, updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async deleteEndpointOfAccount(accountId: string, id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!owned) return false;
      const deliveries = trx.selectFrom('deliveries').select('id').where('endpoint_id', '=', id);
      await trx.deleteFrom('delivery_attempts').where('delivery_id', 'in', deliveries).execute();
      await trx.deleteFrom('deliveries').where('endpoint_id', '=', id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      return true;
    });
  }

  async markDeliveryFailed(deliveryId: string, now: number): Promise<void> {
    await this.#db
      .updateTable('deliveries')
      .set({ status: 'failed', locked_until: null, updated_at: now })
      .where('id', '=', deliveryId)
      .execute();
  }

  /**
   * The endpoint's latest deliveries and their attempts, read in one snapshot: an attempt and its
   * delivery's new state commit together (recordAttempt), and a listing read between its two queries
   * would show one without the other. PostgreSQL reads both in a repeatable-read transaction; on SQLite a
   * transaction keeps other statements from running between them.
   */
  listDeliveriesWithAttempts(
    accountId: string,
    endpointId: string,
    filter: { status?: string | undefined; eventType?: string | undefined },
    page: { offset: number; limit: number },
  ) {
    const { status, eventType } = filter;
    const read = async (db: Kysely<Database>) => {
      const deliveries = await db
        .selectFrom('deliveries')
        .innerJoin('events', 'events.id', 'deliveries.event_id')
        .selectAll('deliveries')
        .select(['events.type as event_type', 'events.payload as payload'])
        .where('deliveries.account_id', '=', accountId)
        .where('deliveries.endpoint_id', '=', endpointId)
        .$if(status !== undefined, (q) => q.where('deliveries.status', '=', status!))
        .$if(eventType !== undefined, (q) => q.where('events.type', '=', eventType!))
        .orderBy('deliveries.created_at', 'desc')
        .orderBy('deliveries.id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .execute();
      const attempts: AttemptRow[] =
        deliveries.length === 0
          ? []
          : await db
              .selectFrom('delivery_attempts')
              .selectAll()
              .where(
                'delivery_id',
                'in',
                deliveries.map((d) => d.id),
              )
              .orderBy('attempted_at')
              .execute();
      return { deliveries, attempts };
    };
    const transaction = this.#db.transaction();
    return (
      this.#dialect === 'postgres' ? transaction.setIsolationLevel('repeatable read') : transaction
    ).execute(read);
  }

  insertEventForEndpoint(
    accountId: string,
    endpointId: string,
    event: { type: string; data: unknown },
    now: number,
  ): Promise<string> {
    return insertEventForEndpoint(this.#db, accountId, endpointId, event, now);
  }

  /** Puts a delivery back in the queue now, keeping its attempt history. */
  async redeliverOfAccount(
    accountId: string,
    endpointId: string,
    deliveryId: string,
    now: number,
  ): Promise<boolean> {
    const r = await this.#db
      .updateTable('deliveries')
      .set({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
      .where('account_id', '=', accountId)
      .where('endpoint_id', '=', endpointId)
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Queues a new delivery to one endpoint for every event of the account since `since`. */
  async replaySinceOfAccount(
    accountId: string,
    endpoint: Pick<EndpointRow, 'id' | 'events'>,
    since: number,
    now: number,
    limit: number,
  ): Promise<{ queued: number; next: number | null }> {
    const types = JSON.parse(endpoint.events) as string[];
    if (types.length === 0) return { queued: 0, next: null };
    // Read a page, not the account's whole history; an event still waiting to reach this endpoint is not
    // queued twice, so repeating a replay adds nothing while the first is under way.
    const events = await this.#db
      .selectFrom('events as e')
      .select(['e.id', 'e.created_at'])
      .where('e.account_id', '=', accountId)
      .where('e.created_at', '>=', since)
      .where('e.type', 'in', types)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('deliveries as d')
              .select('d.id')
              .whereRef('d.event_id', '=', 'e.id')
              .where('d.endpoint_id', '=', endpoint.id)
              .where('d.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(limit + 1)
      .execute();
    const wanted = events.slice(0, limit);
    // Due at once, all of them; their ids (which order deliveries due at the same time) follow the
    // events' order, so that they start oldest first. Ids made in one millisecond would not.
    const delivery = (e: { id: string }, index: number) =>
      pendingDelivery(accountId, e.id, endpoint.id, now, newId('dlv', now + index));
    for (let i = 0; i < wanted.length; i += 500) {
      await this.#db
        .insertInto('deliveries')
        .values(wanted.slice(i, i + 500).map((e, j) => delivery(e, i + j)))
        .execute();
    }
    return { queued: wanted.length, next: events[limit]?.created_at ?? null };
  }
}

export function webhooksRepo(db: Kysely<Database>, dialect: Dialect) {
  // The delivery claims (delivery-claims.ts) and attempts (delivery-attempts.ts) are part of the same
  // repository.
  return Object.assign(
    new WebhooksRepository(db, dialect),
    deliveryClaims(db, dialect),
    deliveryAttempts(db, dialect),
  );
}

export type WebhooksRepo = ReturnType<typeof webhooksRepo>;
