/**
 * PostgreSQL: statuses applied with their events in one statement, whether a network's statuses or sends'
 * own outcomes (SENT with the network id, FAILED with the error); one or many, as ./write-batches.ts
 * gathers the writes of concurrent requests. Each message moves forward, its step joins its history, and
 * when its account has webhook endpoints the `message.status` event and a delivery to each enabled
 * endpoint subscribed to it are written: what the transaction of ./messages-repo.ts does in six round trips
 * (begin, update, history, endpoints, event, commit). One statement is atomic, so each event commits with
 * the change it reports, as the outbox requires (./event-outbox.ts).
 *
 * The payloads are built by the caller before the statement runs, from the message (its fields in the
 * payload never change once sent) and the status itself. An account without endpoints keeps no event, as
 * insertEvent (./webhooks-repo.ts) decides; its payload is then built for nothing, a few microseconds
 * against a round trip.
 *
 * A delivery's id has the usual shape (`dlv_`, the event's time, 16 characters) and is derived from the
 * event's id and the endpoint's, so each (event, endpoint) pair gets its own id without a round trip to ask
 * for them.
 *
 * An UPDATE ... FROM takes one input row per target row, so one statement must not move a message twice.
 * Each send has its own message; network statuses may name one message several times (delivered and read
 * posted at once), so applyStatusesWithEvents sends the first of each message in the statement and the
 * others after it, alone and in their order.
 */
import { type Kysely, sql } from 'kysely';
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
  /** The network id to record with the move (a send's outcome, SENT). */
  recordWaId?: string;
}

type Applied = { moved: boolean; eventWritten: boolean };

/**
 * Per status, in the given order: whether it moved its message, and whether it wrote an event (to wake
 * delivery). No two statuses may name the same message.
 */
export async function applyWithEvents(db: Kysely<Database>, outcomes: StatusWithEvent[]): Promise<Applied[]> {
  const column = <K extends keyof StatusWithEvent>(key: K) => outcomes.map((o) => o[key] ?? null);
  const { rows } = await sql<{ id: string; event_written: boolean }>`
    with input as (
      select * from unnest(${column('messageId')}::text[], ${column('status')}::text[], ${column('rank')}::int[],
        ${column('error')}::text[], ${column('at')}::bigint[], ${column('stepId')}::text[],
        ${column('eventId')}::text[], ${column('eventAt')}::bigint[], ${column('payload')}::text[],
        ${column('recordWaId')}::text[])
        as i(message_id, status, rank, error, at, step_id, event_id, event_at, payload, wa_id)
    ), moved as (
      update messages m set status = i.status, status_rank = i.rank, error = i.error, updated_at = i.at,
        wa_id = coalesce(i.wa_id, m.wa_id)
      from input i
      where m.id = i.message_id and m.status_rank < i.rank and m.status <> 'FAILED'
      returning m.id, m.account_id, i.status, i.at, i.error, i.step_id, i.event_id, i.event_at, i.payload
    ), logged as (
      insert into message_status_events (id, message_id, status, at, error)
      select step_id, id, status, at, error from moved
    ), endpoints as (
      select e.id, e.account_id, e.events, e.disabled_at from webhook_endpoints e
      where e.account_id in (select account_id from moved)
    ), event as (
      insert into events (id, account_id, type, payload, created_at)
      select m.event_id, m.account_id, ${STATUS_EVENT_TYPE}::text, m.payload, m.event_at from moved m
      where exists (select 1 from endpoints e where e.account_id = m.account_id)
      returning id, account_id, created_at
    ), delivered as (
      insert into deliveries (id, account_id, event_id, endpoint_id, status, attempt_count, next_attempt_at,
        locked_until, last_status_code, created_at, updated_at)
      select 'dlv_' || substr(v.id, 5, 10) || substr(md5(v.id || e.id), 1, 16), v.account_id, v.id, e.id,
        'pending', 0, v.created_at, null, null, v.created_at, v.created_at
      from event v join endpoints e on e.account_id = v.account_id
      where e.disabled_at is null and jsonb_exists(e.events::jsonb, ${STATUS_EVENT_TYPE}::text)
    )
    select m.id, exists (select 1 from event v where v.id = m.event_id) as event_written from moved m`.execute(
    db,
  );
  const byId = new Map(rows.map((r) => [r.id, r.event_written === true]));
  return outcomes.map((o) => ({
    moved: byId.has(o.messageId),
    eventWritten: byId.get(o.messageId) === true,
  }));
}

/** Network statuses: the first of each message together, the others after it, alone and in order. */
export async function applyStatusesWithEvents(
  db: Kysely<Database>,
  statuses: StatusWithEvent[],
): Promise<Applied[]> {
  const seen = new Set<string>();
  const first: number[] = [];
  const later: number[] = [];
  statuses.forEach((s, i) => {
    if (seen.has(s.messageId)) later.push(i);
    else {
      seen.add(s.messageId);
      first.push(i);
    }
  });
  const results: Applied[] = new Array(statuses.length);
  const together = await applyWithEvents(
    db,
    first.map((i) => statuses[i] as StatusWithEvent),
  );
  first.forEach((i, k) => {
    results[i] = together[k] as Applied;
  });
  for (const i of later)
    results[i] = (await applyWithEvents(db, [statuses[i] as StatusWithEvent]))[0] as Applied;
  return results;
}
