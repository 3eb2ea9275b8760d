/**
 * PostgreSQL: an event and its deliveries written in one statement, as ./status-with-event.ts writes a
 * status's. insertEvent (./webhooks-repo.ts) otherwise takes three round trips: the account's endpoints,
 * the event, its deliveries. It runs for every message received, opt-out, template review and campaign
 * change of an account with endpoints, inside the transaction of the change it reports (the outbox).
 *
 * A delivery's id has the usual shape (`dlv_`, the event's time, 16 characters) and is derived from the
 * event's id and the endpoint's, so each (event, endpoint) pair gets its own id without a round trip to
 * ask for them.
 */
import { type Kysely, sql } from 'kysely';
import { prepare } from './prepared.ts';
import type { Database } from './schema.ts';

/** The id of the delivery of event `v` to endpoint `e`, in a statement that names them so. */
export const DERIVED_DELIVERY_ID = sql`'dlv_' || substr(v.id, 5, 10) || substr(md5(v.id || e.id), 1, 16)`;

const statement = prepare(
  (db: Kysely<Database>, accountId: string, type: string, eventId: string, payload: string, at: number) => {
    const query = sql<{ written: boolean }>`
      with endpoints as (
        select e.id, e.events, e.disabled_at from webhook_endpoints e where e.account_id = ${accountId}
      ), event as (
        insert into events (id, account_id, type, payload, created_at)
        select ${eventId}::text, ${accountId}::text, ${type}::text, ${payload}::text, ${at}::bigint
        where exists (select 1 from endpoints)
        returning id, account_id
      ), delivered as (
        insert into deliveries (id, account_id, event_id, endpoint_id, status, attempt_count, next_attempt_at,
          locked_until, last_status_code, created_at, updated_at)
        select ${DERIVED_DELIVERY_ID}, v.account_id, v.id, e.id, 'pending', 0, ${at}::bigint, null, null,
          ${at}::bigint, ${at}::bigint
        from event v, endpoints e
        where e.disabled_at is null and jsonb_exists(e.events::jsonb, ${type}::text)
      )
      select exists (select 1 from event) as written`;
    return { compile: () => query.compile(db) };
  },
  5,
);

/**
 * Writes the event, and a pending delivery to every enabled endpoint of the account subscribed to its
 * type, when the account has any endpoint at all; whether the event was written.
 */
export async function insertEventInOneStatement(
  db: Kysely<Database>,
  event: { accountId: string; type: string; id: string; payload: string; at: number },
): Promise<boolean> {
  const { rows } = await statement(db, event.accountId, event.type, event.id, event.payload, event.at);
  return rows[0]?.written === true;
}
