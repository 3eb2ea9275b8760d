/**
 * PostgreSQL: the outcomes of several sends (SENT with the network id, or FAILED with the error) applied
 * with their events in one statement, the many-message form of ./status-with-event.ts, for the outcomes of
 * concurrent sends gathered by ./write-batches.ts. Each send has its own message, so no two outcomes of one
 * statement move the same row (an UPDATE ... FROM takes one input row per target row); network statuses,
 * several of which may name one message, keep the one-message form.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { STATUS_EVENT_TYPE, type StatusWithEvent } from './status-with-event.ts';

/** Per outcome, in the given order: whether it moved its message, and whether it wrote an event. */
export async function applyOutcomesWithEvents(
  db: Kysely<Database>,
  outcomes: StatusWithEvent[],
): Promise<{ moved: boolean; eventWritten: boolean }[]> {
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
