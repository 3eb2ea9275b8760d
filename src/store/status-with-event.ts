/**
 * PostgreSQL: a status applied in one statement, a network's or a send's own outcome. The message moves
 * forward, the step joins its history, and, when its account has webhook endpoints, the `message.status`
 * event and a delivery to each enabled endpoint subscribed to it are written: what the transaction of
 * messages-repo.ts does in six round trips (begin, update, history, endpoints, event, commit), here in one. A single statement is atomic, so
 * the event commits with the change it reports, as the outbox requires (src/store/event-outbox.ts).
 *
 * The event's payload is built by the caller before the statement runs, from the message read just before
 * (its fields in the payload never change once sent) and the status itself. An account without endpoints
 * keeps no event, as insertEvent (./webhooks-repo.ts) decides; its payload is then built for nothing, a
 * few microseconds against a round trip.
 *
 * A delivery's id is derived from the event's id and the endpoint's (./pg-event-statement.ts says how).
 */
import { type Kysely, sql } from 'kysely';
import { DERIVED_DELIVERY_ID } from './pg-event-statement.ts';
import { prepare } from './prepared.ts';
import type { Database } from './schema.ts';

export const STATUS_EVENT_TYPE = 'message.status';

export interface StatusWithEvent {
  messageId: string;
  status: string;
  rank: number;
  error: string | null;
  at: number;
  /** The history step's id. */
  stepId: string;
  /** The event's id, made at `eventAt`. */
  eventId: string;
  eventAt: number;
  payload: string;
  /** The network id to record with the move (the send's outcome). */
  recordWaId?: string;
}

/** The statement; `recordWaId` also records the network id (a send's own outcome, SENT). */
const statementOf = (recordWaId: boolean) =>
  prepare(
    (
      db: Kysely<Database>,
      messageId: string,
      status: string,
      rank: number,
      error: string | null,
      at: number,
      stepId: string,
      eventId: string,
      eventAt: number,
      payload: string,
      waId: string | null,
    ) => {
      const setWaId = recordWaId ? sql`, wa_id = ${waId}` : sql``;
      const query = sql<{ moved: number; event_written: boolean }>`
      with moved as (
        update messages set status = ${status}, status_rank = ${rank}, error = ${error}, updated_at = ${at}${setWaId}
        where id = ${messageId} and status_rank < ${rank} and status <> 'FAILED'
        returning id, account_id
      ), logged as (
        insert into message_status_events (id, message_id, status, at, error)
        select ${stepId}::text, id, ${status}::text, ${at}::bigint, ${error}::text from moved
      ), endpoints as (
        select e.id, e.events, e.disabled_at from webhook_endpoints e join moved m on e.account_id = m.account_id
      ), event as (
        insert into events (id, account_id, type, payload, created_at)
        select ${eventId}::text, m.account_id, ${STATUS_EVENT_TYPE}::text, ${payload}::text, ${eventAt}::bigint
        from moved m where exists (select 1 from endpoints)
        returning id, account_id
      ), delivered as (
        insert into deliveries (id, account_id, event_id, endpoint_id, status, attempt_count, next_attempt_at,
          locked_until, last_status_code, created_at, updated_at)
        select ${DERIVED_DELIVERY_ID}, v.account_id, v.id, e.id,
          'pending', 0, ${eventAt}::bigint, null, null, ${eventAt}::bigint, ${eventAt}::bigint
        from event v, endpoints e
        where e.disabled_at is null and jsonb_exists(e.events::jsonb, ${STATUS_EVENT_TYPE}::text)
      )
      select (select count(*) from moved)::int as moved, exists (select 1 from event) as event_written`;
      return { compile: () => query.compile(db) };
    },
    10,
  );
const moving = statementOf(false);
const recordingWaId = statementOf(true);

/** Applies the status; whether the message moved, and whether an event was written (to wake delivery). */
export async function applyStatusWithEvent(
  db: Kysely<Database>,
  s: StatusWithEvent,
): Promise<{ moved: boolean; eventWritten: boolean }> {
  const { rows } = await (s.recordWaId === undefined ? moving : recordingWaId)(
    db,
    s.messageId,
    s.status,
    s.rank,
    s.error,
    s.at,
    s.stepId,
    s.eventId,
    s.eventAt,
    s.payload,
    s.recordWaId ?? null,
  );
  return { moved: (rows[0]?.moved ?? 0) > 0, eventWritten: rows[0]?.event_written === true };
}
