/**
 * The statements of the messages store (./messages-repo.ts), each compiled once (./prepared.ts): a send's
 * claim, the status steps, and the reads of a network status's message and of statuses that came early.
 */
import { type Kysely, sql } from 'kysely';
import { type MessageStatus, statusRank } from '../domain/message-status.ts';
import { newId } from '../lib/ids.ts';
import type { ClaimRow } from './message-rows.ts';
import { compiledOnce, prepare } from './prepared.ts';
import type { Database, MessagesTable } from './schema.ts';

type MessageRow = MessagesTable;

/** The queries every send runs, compiled once (./prepared.ts); the claim insert once per set of columns. */
const claimInserts = new Map<
  string,
  (db: Kysely<Database>, ...values: unknown[]) => Promise<{ rows: unknown[] }>
>();
export function claimInsert(columns: string[]) {
  const key = columns.join(',');
  let insert = claimInserts.get(key);
  if (!insert) {
    insert = prepare(
      (db: Kysely<Database>, ...values: unknown[]) =>
        db
          .insertInto('messages')
          .values({
            ...(Object.fromEntries(columns.map((c, i) => [c, values[i]])) as ClaimRow),
            status: 'PENDING',
            status_rank: 0,
            wa_id: null,
            error: null,
          })
          .onConflict((oc) => oc.columns(['account_id', 'client_message_id']).doNothing())
          .returning('id'),
      columns.length,
    );
    claimInserts.set(key, insert);
  }
  return insert;
}

/** What a move is given, in order: the message's key (its id or its network id), then the step. */
export type MoveArgs = [
  key: string,
  status: string,
  rank: number,
  error: string | null,
  at: number,
  waId: string | null,
];

/**
 * A message moved forward to `status`, never back and never after FAILED, found by its id or its network
 * id; `recordWaId` also records the network id. The one rule of a move, for the statements below and
 * ./sqlite-status-with-event.ts, which differ only in what they return.
 */
export function forwardMove(
  db: Kysely<Database>,
  where: { byId: boolean; recordWaId: boolean },
  ...[key, status, rank, error, at, waId]: MoveArgs
) {
  const move = db
    .updateTable('messages')
    .set({ status, status_rank: rank, error, updated_at: at, ...(where.recordWaId ? { wa_id: waId } : {}) })
    .where('status_rank', '<', rank)
    .where('status', '!=', 'FAILED');
  return where.byId ? move.where('id', '=', key) : move.where('wa_id', '=', key);
}

function advanceQuery(byId: boolean, recordWaId: boolean) {
  return prepare(
    (db: Kysely<Database>, ...move: MoveArgs) =>
      forwardMove(db, { byId, recordWaId }, ...move).returningAll(),
    6,
  );
}
export const advanceById = advanceQuery(true, false);
export const advanceByIdRecordingWaId = advanceQuery(true, true);
export const advanceByWaId = advanceQuery(false, false);
export const advanceByWaIdRecordingWaId = advanceQuery(false, true);

export const insertStatusEventQuery = compiledOnce(
  (db: Kysely<Database>, id: string, messageId: string, status: string, at: number, error: string | null) =>
    db.insertInto('message_status_events').values({ id, message_id: messageId, status, at, error }),
  5,
);
export const insertStatusEvent = (
  db: Kysely<Database>,
  id: string,
  messageId: string,
  status: string,
  at: number,
  error: string | null,
) => db.executeQuery(insertStatusEventQuery(db, id, messageId, status, at, error));

/**
 * A network status that arrives after a later one (a `delivered` after `read`: the network does not keep
 * order, and a status kept until the send recorded its id can be applied after one that came straight in)
 * does not move the message, nor publish an event, but what it says happened: it joins the timeline once.
 * Never after FAILED, which ends the timeline.
 */
export async function recordLateStep(
  trx: Kysely<Database>,
  waId: string,
  status: MessageStatus,
  at: number,
  error: string | null,
): Promise<void> {
  if (status === 'FAILED' || status === 'PENDING') return;
  await trx
    .insertInto('message_status_events')
    .columns(['id', 'message_id', 'status', 'at', 'error'])
    .expression((eb) =>
      eb
        .selectFrom('messages as m')
        // Typed casts: PostgreSQL cannot infer the type of a bare parameter in a select list.
        .select([
          sql<string>`cast(${newId('mse')} as text)`.as('id'),
          'm.id as message_id',
          sql<string>`cast(${status} as text)`.as('status'),
          sql<number>`cast(${at} as bigint)`.as('at'),
          sql<string | null>`cast(${error} as text)`.as('error'),
        ])
        .where('m.wa_id', '=', waId)
        .where('m.status', '!=', 'FAILED')
        .where('m.status_rank', '>', statusRank(status))
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('message_status_events as e')
                .select('e.id')
                .whereRef('e.message_id', '=', 'm.id')
                .where('e.status', '=', status),
            ),
          ),
        ),
    )
    .execute();
}

/** Looked for after every accepted send: its columns named, so PostgreSQL prepares it once per connection. */
export const unmatchedOf = prepare(
  (db: Kysely<Database>, waId: string) =>
    db
      .selectFrom('unmatched_statuses')
      .select(['id', 'wa_id', 'status', 'at', 'error', 'network'])
      .where('wa_id', '=', waId)
      .orderBy('at'),
  1,
);

/** A network status's message, with what its event says of it: read once per status, so compiled once. */
export const knownByWaId = prepare(
  (db: Kysely<Database>, waId: string) =>
    db
      .selectFrom('messages')
      .select([
        'id',
        'account_id',
        'client_message_id',
        'from_phone',
        'to_phone',
        'wa_id',
        'status',
        'status_rank',
      ])
      .where('wa_id', '=', waId),
  1,
);
export type KnownMessage = Pick<
  MessageRow,
  'id' | 'account_id' | 'client_message_id' | 'from_phone' | 'to_phone' | 'wa_id' | 'status' | 'status_rank'
>;
