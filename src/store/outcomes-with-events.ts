/**
 * PostgreSQL: the outcomes of several sends (SENT with the network id, or FAILED with the error), or the
 * statuses of several network webhooks, applied with their events in one statement: the many-message form
 * of ./status-with-event.ts, for the writes of concurrent requests gathered by ./write-batches.ts.
 *
 * An UPDATE ... FROM takes one input row per target row, so one statement must not move a message twice.
 * Each send has its own message; network statuses may name one message several times (delivered and read
 * posted at once), so the first of each message goes in the statement and the others follow alone, in
 * their order, once it committed.
 */
import { type Kysely, sql } from 'kysely';
import { DERIVED_DELIVERY_ID } from './pg-event-statement.ts';
import type { Database } from './schema.ts';
import { applyStatusWithEvent, STATUS_EVENT_TYPE, type StatusWithEvent } from './status-with-event.ts';

type Applied = { moved: boolean; eventWritten: boolean };

/** Per outcome, in the given order: whether it moved its message, and whether it wrote an event. */
export async function applyOutcomesWithEvents(
  db: Kysely<Database>,
  outcomes: StatusWithEvent[],
): Promise<Applied[]> {
  const column = <K extends keyof StatusWithEvent>(key: K) => outcomes.map((o) => o[key] ?? null);
  const { rows } = await sql<{ id: string; event_written: boolean }>`
    with input as (
      select i.message_id, i.status, i.rank, i.error, i.at, i.step_id, i.event_id, i.event_at, i.payload, i.wa_id
      from unnest(${column('messageId')}::text[], ${column('status')}::text[], ${column('rank')}::int[],
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
      select ${DERIVED_DELIVERY_ID}, v.account_id, v.id, e.id,
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
  const together = await applyOutcomesWithEvents(
    db,
    first.map((i) => statuses[i] as StatusWithEvent),
  );
  first.forEach((i, k) => {
    results[i] = together[k] as Applied;
  });
  for (const i of later) results[i] = await applyStatusWithEvent(db, statuses[i] as StatusWithEvent);
  return results;
}
