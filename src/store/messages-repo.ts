/**
 * Messages the gateway sent: the deduplication reservation, the network id, and the status history
 * (src/domain/ports/messages.ts).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { type MessageStatus, statusRank } from '../domain/message-status.ts';
import type { MessageClaim, MessagesStore, SentMessage } from '../domain/ports/messages.ts';
import { newId } from '../lib/ids.ts';
import { messageReads } from './message-reads.ts';
import { type ClaimRow, claimRowOf, sentMessageOf } from './message-rows.ts';
import { prepare } from './prepared.ts';
import type { Database, MessagesTable } from './schema.ts';
import { unsettledMessages } from './unsettled-messages.ts';

type MessageRow = MessagesTable;

export interface MessageHooks {
  /** Runs in the transaction that moved the message, so what it writes (an event) commits with it. */
  onStatusChange?(
    trx: Kysely<Database>,
    message: SentMessage,
    status: MessageStatus,
    at: number,
    error: string | null,
    /** The network's status object as it arrived (JSON), for a status the network reported. */
    network?: string | null,
  ): Promise<void>;
  /**
   * onStatusChange writes nothing for an account without webhook endpoints. PostgreSQL then moves such an
   * account's message in one statement (update, status history and the endpoint check together) instead of
   * a five-round-trip transaction.
   */
  statusChangeNeedsEndpoints?: boolean;
}

/** The queries every send runs, compiled once (./prepared.ts); the claim insert once per set of columns. */
const claimInserts = new Map<
  string,
  (db: Kysely<Database>, ...values: unknown[]) => Promise<{ rows: unknown[] }>
>();
function claimInsert(columns: string[]) {
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

function advanceQuery(byId: boolean, recordWaId: boolean) {
  return prepare(
    (
      db: Kysely<Database>,
      key: string,
      status: string,
      rank: number,
      error: string | null,
      at: number,
      waId: string | null,
    ) => {
      const query = db
        .updateTable('messages')
        .set({ status, status_rank: rank, error, updated_at: at, ...(recordWaId ? { wa_id: waId } : {}) })
        .where('status_rank', '<', rank)
        .where('status', '!=', 'FAILED')
        .returningAll();
      return byId ? query.where('id', '=', key) : query.where('wa_id', '=', key);
    },
    6,
  );
}
const advanceById = advanceQuery(true, false);
const advanceByIdRecordingWaId = advanceQuery(true, true);
const advanceByWaId = advanceQuery(false, false);
const advanceByWaIdRecordingWaId = advanceQuery(false, true);

const insertStatusEvent = prepare(
  (db: Kysely<Database>, id: string, messageId: string, status: string, at: number, error: string | null) =>
    db.insertInto('message_status_events').values({ id, message_id: messageId, status, at, error }),
  5,
);
/**
 * PostgreSQL: moves a message (by id) forward and records the step in one statement, if its account has no
 * webhook endpoint; with one, nothing changes and `has_endpoints` says the caller must use a transaction.
 * One statement is atomic on its own, and the endpoint check sees the same snapshot as the update.
 */
function advanceInOneStatement(recordWaId: boolean) {
  return prepare(
    (
      db: Kysely<Database>,
      id: string,
      status: string,
      rank: number,
      error: string | null,
      at: number,
      waId: string | null,
      eventId: string,
    ) => {
      const setWaId = recordWaId ? sql`, wa_id = ${waId}` : sql``;
      const query = sql<{ has_endpoints: boolean; moved: number }>`
        with hooked as (
          select exists (
            select 1 from webhook_endpoints e join messages m on e.account_id = m.account_id where m.id = ${id}
          ) as has
        ), moved as (
          update messages set status = ${status}, status_rank = ${rank}, error = ${error}, updated_at = ${at}${setWaId}
          where id = ${id} and status_rank < ${rank} and status <> 'FAILED' and not (select has from hooked)
          returning id
        ), logged as (
          insert into message_status_events (id, message_id, status, at, error)
          select ${eventId}::text, id, ${status}::text, ${at}::bigint, ${error}::text from moved
        )
        select (select has from hooked) as has_endpoints, (select count(*) from moved)::int as moved`;
      return { compile: () => query.compile(db) };
    },
    7,
  );
}
const advanceByIdAtOnce = advanceInOneStatement(false);
const advanceByIdRecordingWaIdAtOnce = advanceInOneStatement(true);

/**
 * A network status that arrives after a later one (a `delivered` after `read`: the network does not keep
 * order, and a status kept until the send recorded its id can be applied after one that came straight in)
 * does not move the message, nor publish an event, but what it says happened: it joins the timeline once.
 * Never after FAILED, which ends the timeline.
 */
async function recordLateStep(
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
const unmatchedOf = prepare(
  (db: Kysely<Database>, waId: string) =>
    db
      .selectFrom('unmatched_statuses')
      .select(['id', 'wa_id', 'status', 'at', 'error', 'network'])
      .where('wa_id', '=', waId)
      .orderBy('at'),
  1,
);

class MessagesRepository {
  readonly #db: Kysely<Database>;
  readonly #hooks: MessageHooks;
  /** Status steps in one statement (PostgreSQL) when no hook needs the moved rows one by one. */
  readonly #atOnce: boolean;

  constructor(db: Kysely<Database>, hooks: MessageHooks) {
    this.#db = db;
    this.#hooks = hooks;
    this.#atOnce =
      (!hooks.onStatusChange || hooks.statusChangeNeedsEndpoints === true) &&
      db.getExecutor().adapter instanceof PostgresAdapter;
  }

  /**
   * Moves one message forward to `status` if that is forward; returns whether it moved. `waId` recorded
   * in the same statement saves the send path a write.
   */
  async advance(
    where: { id: string } | { waId: string },
    status: MessageStatus,
    at: number,
    error: string | null,
    recordWaId?: string,
    network?: string | null,
  ) {
    const byId = 'id' in where;
    if (byId && this.#atOnce) {
      const { rows } = await (recordWaId ? advanceByIdRecordingWaIdAtOnce : advanceByIdAtOnce)(
        this.#db,
        where.id,
        status,
        statusRank(status),
        error,
        at,
        recordWaId ?? null,
        newId('mse'),
      );
      if (!rows[0]?.has_endpoints) return (rows[0]?.moved ?? 0) > 0;
    }
    const update = byId
      ? recordWaId
        ? advanceByIdRecordingWaId
        : advanceById
      : recordWaId
        ? advanceByWaIdRecordingWaId
        : advanceByWaId;
    return this.#db.transaction().execute(async (trx) => {
      const { rows: moved } = await update(
        trx,
        byId ? where.id : where.waId,
        status,
        statusRank(status),
        error,
        at,
        recordWaId ?? null,
      );
      for (const row of moved) {
        await insertStatusEvent(trx, newId('mse'), row.id, status, at, error);
        await this.#hooks.onStatusChange?.(trx, sentMessageOf(row), status, at, error, network);
      }
      return moved.length > 0;
    });
  }

  /**
   * Moves a message with `change` (an update guarded by its own conditions, returning the rows it moved) and
   * records the step and its event in the same transaction; returns whether it moved.
   */
  settle(
    status: MessageStatus,
    at: number,
    error: string | null,
    change: (trx: Kysely<Database>) => Promise<MessageRow[]>,
  ): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const moved = await change(trx);
      for (const row of moved) {
        await insertStatusEvent(trx, newId('mse'), row.id, status, at, error);
        await this.#hooks.onStatusChange?.(trx, sentMessageOf(row), status, at, error);
      }
      return moved.length > 0;
    });
  }

  async applyUnmatched(waId: string): Promise<void> {
    const { rows: pending } = await unmatchedOf(this.#db, waId);
    for (const s of pending) {
      const status = s.status as MessageStatus;
      if (!(await this.advance({ waId }, status, s.at, s.error, undefined, s.network)))
        await recordLateStep(this.#db, waId, status, s.at, s.error);
      await this.#db.deleteFrom('unmatched_statuses').where('id', '=', s.id).execute();
    }
  }

  /**
   * Claims `client_message_id` for this account. Returns null when the claim is ours, otherwise the row that
   * holds it. The unique constraint decides, so two nodes racing on one id cannot both win.
   */
  async reserve(claim: MessageClaim): Promise<SentMessage | null> {
    const entries = Object.entries(claimRowOf(claim));
    const { rows } = await claimInsert(entries.map(([column]) => column))(
      this.#db,
      ...entries.map(([, value]) => value),
    );
    if (rows.length > 0) return null;
    const existing = await this.findByClientId(claim.accountId, claim.clientMessageId);
    // The holder can vanish between the two statements (a failed send releases its claim): claim again.
    return existing ?? this.reserve(claim);
  }

  async findByClientId(accountId: string, clientMessageId: string): Promise<SentMessage | undefined> {
    const row = await this.#db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('client_message_id', '=', clientMessageId)
      .executeTakeFirst();
    return row && sentMessageOf(row);
  }

  /** Gives a claim back when the network surely did not take the message, so the client may retry. */
  async release(id: string): Promise<void> {
    await this.#db.deleteFrom('messages').where('id', '=', id).where('status', '=', 'PENDING').execute();
  }

  /** The network accepted the message: record its id, then apply any status that outran the answer. */
  async markAccepted(id: string, waId: string, at: number): Promise<void> {
    // The id is committed before looking for early statuses, not in one transaction with that look: with
    // the status webhook doing "insert unmatched, then look for the message", whichever side writes
    // second is then certain to see the other's write.
    await this.advance({ id }, 'SENT', at, null, waId);
    await this.applyUnmatched(waId);
  }

  async markFailed(id: string, at: number, error: string): Promise<void> {
    await this.advance({ id }, 'FAILED', at, error);
  }

  /**
   * A status from the network. Unknown ids are kept until the send that owns them records its id. Returns
   * whether a message has this network id; false leaves the status waiting (see settleFromNetwork).
   */
  async applyNetworkStatus(
    waId: string,
    status: MessageStatus,
    at: number,
    error: string | null,
    reported?: Record<string, unknown>,
  ): Promise<boolean> {
    // Most reports repeat what is known already: the object is serialized only for one that is kept.
    const network = () => (reported ? JSON.stringify(reported) : null);
    const known = await this.#db
      .selectFrom('messages')
      .select(['status', 'status_rank'])
      .where('wa_id', '=', waId)
      .executeTakeFirst();
    if (known) {
      // Most reports repeat what is known already (the network's `sent` after the send's own SENT):
      // settle those with this one read instead of a transaction.
      if (known.status === 'FAILED') return true;
      if (known.status_rank < statusRank(status))
        await this.advance({ waId }, status, at, error, undefined, network());
      else if (known.status_rank > statusRank(status))
        await recordLateStep(this.#db, waId, status, at, error);
      return true;
    }
    await this.#db
      .insertInto('unmatched_statuses')
      .values({ id: newId('ust'), wa_id: waId, status, at, error, network: network() })
      .execute();
    const linked = await this.#db
      .selectFrom('messages')
      .select('id')
      .where('wa_id', '=', waId)
      .executeTakeFirst();
    if (linked) await this.applyUnmatched(waId);
    return linked !== undefined;
  }
}

export function messagesRepo(db: Kysely<Database>, hooks: MessageHooks = {}): MessagesStore {
  const repo = new MessagesRepository(db, hooks);
  // The open-outcome part of the store (unsettled-messages.ts) moves messages with this repository's steps.
  const parts = {
    settle: repo.settle.bind(repo),
    applyUnmatched: repo.applyUnmatched.bind(repo),
  };
  return Object.assign(repo, unsettledMessages(db, parts), messageReads(db));
}
