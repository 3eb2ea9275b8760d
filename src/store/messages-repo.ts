/**
 * Messages the gateway sent: the deduplication reservation, the network id, and the status history
 * (src/domain/ports/messages.ts).
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { type MessageStatus, statusRank } from '../domain/message-status.ts';
import type {
  MessageClaim,
  MessagesStore,
  OutcomeSubject,
  SentMessage,
  StatusSubject,
} from '../domain/ports/messages.ts';
import { newId } from '../lib/ids.ts';
import { insertClaims, knownByWaIds, type UnmatchedRow, unmatchedOfMany } from './batched-statements.ts';
import { messageReads } from './message-reads.ts';
import { type ClaimRow, claimRowOf, sentMessageOf } from './message-rows.ts';
import {
  advanceById,
  advanceByIdRecordingWaId,
  advanceByWaId,
  advanceByWaIdRecordingWaId,
  claimInsert,
  insertStatusEvent,
  type KnownMessage,
  knownByWaId,
  recordLateStep,
  unmatchedOf,
} from './message-statements.ts';
import { sqliteDriverOf } from './node-sqlite-dialect.ts';
import { applyOutcomesWithEvents, applyStatusesWithEvents } from './outcomes-with-events.ts';
import { batchedRead, batchesReads } from './read-batches.ts';
import type { Database, MessagesTable } from './schema.ts';
import { applyStatusWithEventSqlite } from './sqlite-status-with-event.ts';
import { applyStatusWithEvent, type StatusWithEvent } from './status-with-event.ts';
import { unsettledMessages } from './unsettled-messages.ts';
import { batchedWrite } from './write-batches.ts';

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
   * The event of a network status or of a send's outcome applied with the move, in one statement on
   * PostgreSQL (./status-with-event.ts) or in one synchronous run on SQLite (./sqlite-status-with-event.ts),
   * for hooks whose onStatusChange writes only that event: its payload text at `now`, and what to do once
   * one is written.
   */
  statusEvent?: {
    payload(
      message: StatusSubject,
      status: MessageStatus,
      at: number,
      error: string | null,
      network: string | null,
      now: number,
    ): string;
    written(): void;
  };
}

/** A status's message as its event speaks of it. */
const subjectOf = (known: KnownMessage): StatusSubject & { id: string } => ({
  id: known.id,
  accountId: known.account_id,
  clientMessageId: known.client_message_id,
  waId: known.wa_id,
  fromPhone: known.from_phone,
  toPhone: known.to_phone,
});

class MessagesRepository {
  readonly #db: Kysely<Database>;
  readonly #hooks: MessageHooks;
  /** Network statuses and sends' outcomes applied with their event at once (see MessageHooks). */
  readonly #statusEvent: MessageHooks['statusEvent'];
  /** Sends' outcomes with their events; on PostgreSQL concurrent ones in one statement. */
  readonly #outcomes: (outcome: StatusWithEvent) => Promise<{ moved: boolean; eventWritten: boolean }>;
  /** Network statuses with their events; on PostgreSQL concurrent ones in one statement. */
  readonly #statuses: (status: StatusWithEvent) => Promise<{ moved: boolean; eventWritten: boolean }>;
  /** Inserts a send's claim; false when its messageId is taken. */
  readonly #claim: (row: ClaimRow) => Promise<boolean>;
  readonly #unmatchedOf: (waId: string) => Promise<UnmatchedRow[]>;
  readonly #knownByWaId: (waId: string) => Promise<KnownMessage[]>;
  /**
   * Network ids whose send this node is recording (markAccepted under way), with the end of that write.
   * The network posts a message's `sent` as it answers the send, and when it keeps up that post can reach
   * the gateway before the id is written. Parked as unmatched, the status would cost four statements more
   * and a second move of the message; a status that finds its id here waits for the write instead.
   */
  readonly #accepting = new Map<string, Promise<void>>();

  constructor(db: Kysely<Database>, hooks: MessageHooks) {
    this.#db = db;
    this.#hooks = hooks;
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const sqlite = sqliteDriverOf(db);
    this.#statusEvent = postgres || sqlite ? hooks.statusEvent : undefined;
    // Every send claims its messageId and, once accepted, looks for early statuses; every status reads its
    // message. On PostgreSQL those of concurrent requests go as one statement (./read-batches.ts,
    // ./write-batches.ts).
    const claimOne = async (row: ClaimRow) => {
      const entries = Object.entries(row);
      const { rows } = await claimInsert(entries.map(([column]) => column))(db, ...entries.map(([, v]) => v));
      return rows.length > 0;
    };
    if (sqlite) {
      // SQLite's statements cost microseconds and its commits are gathered per turn already: each status
      // goes alone, its statements run together (./sqlite-status-with-event.ts).
      const applyNow = (status: StatusWithEvent) => applyStatusWithEventSqlite(db, sqlite, status);
      this.#outcomes = applyNow;
      this.#statuses = applyNow;
    } else {
      // A lone write takes the one-message statement, which costs PostgreSQL less than the array form.
      const applyOne = (status: StatusWithEvent) => applyStatusWithEvent(db, status);
      this.#outcomes = batchedWrite(
        (outcomes: StatusWithEvent[]) => applyOutcomesWithEvents(db, outcomes),
        applyOne,
      );
      this.#statuses = batchedWrite(
        (statuses: StatusWithEvent[]) => applyStatusesWithEvents(db, statuses),
        applyOne,
      );
    }
    if (batchesReads(db)) {
      this.#claim = batchedWrite(async (rows: ClaimRow[]) => {
        const inserted = await insertClaims(db, rows);
        return rows.map((r) => inserted.has(r.id));
      }, claimOne);
      this.#unmatchedOf = batchedRead(
        (waIds) => unmatchedOfMany(db, waIds),
        (row) => row.wa_id,
      );
      this.#knownByWaId = batchedRead(
        (waIds) => knownByWaIds(db, waIds),
        // Found by its network id, so it has one.
        (row) => row.wa_id ?? '',
      );
    } else {
      this.#claim = claimOne;
      this.#unmatchedOf = async (waId) => (await unmatchedOf(db, waId)).rows;
      this.#knownByWaId = async (waId) => (await knownByWaId(db, waId)).rows;
    }
  }

  /**
   * A status moving a message, with its event, at once: on PostgreSQL in one statement
   * (./status-with-event.ts), shared with the concurrent sends' outcomes, or the concurrent network
   * statuses, beside it (./outcomes-with-events.ts); on SQLite in one synchronous run
   * (./sqlite-status-with-event.ts). `outcome` marks a send's own outcome, with the network id to record
   * for SENT.
   */
  async #applyWithEvent(
    event: NonNullable<MessageHooks['statusEvent']>,
    message: StatusSubject & { id: string },
    change: { status: MessageStatus; at: number; error: string | null; network: () => string | null },
    outcome?: { recordWaId?: string },
  ): Promise<void> {
    const { status, at, error, network } = change;
    // The event's own time, as insertEvent (./webhooks-repo.ts) takes it: when it is recorded.
    const now = Math.max(Date.now(), at);
    const { id, ...subject } = message;
    // Built when read: SQLite reads it only for an account with webhook endpoints (./event-writes.ts).
    let payload: string | undefined;
    const statement: StatusWithEvent = {
      messageId: id,
      status,
      rank: statusRank(status),
      error,
      at,
      stepId: newId('mse'),
      eventId: newId('evt', now),
      eventAt: now,
      get payload() {
        payload ??= event.payload(subject, status, at, error, network(), now);
        return payload;
      },
      ...(outcome?.recordWaId === undefined ? {} : { recordWaId: outcome.recordWaId }),
    };
    const { eventWritten } = await (outcome ? this.#outcomes : this.#statuses)(statement);
    if (eventWritten) event.written();
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
    const pending = await this.#unmatchedOf(waId);
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
    if (await this.#claim(claimRowOf(claim))) return null;
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
  async markAccepted(message: OutcomeSubject, waId: string, at: number): Promise<void> {
    const recording = this.#recordAccepted(message, waId, at);
    const written = recording.then(
      () => undefined,
      () => undefined,
    );
    this.#accepting.set(waId, written);
    try {
      await recording;
    } finally {
      if (this.#accepting.get(waId) === written) this.#accepting.delete(waId);
    }
  }

  async #recordAccepted(message: OutcomeSubject, waId: string, at: number): Promise<void> {
    // The id is committed before looking for early statuses, not in one transaction with that look: with
    // the status webhook doing "insert unmatched, then look for the message", whichever side writes
    // second is then certain to see the other's write.
    if (this.#statusEvent)
      await this.#applyWithEvent(
        this.#statusEvent,
        { ...message, waId },
        { status: 'SENT', at, error: null, network: () => null },
        { recordWaId: waId },
      );
    else await this.advance({ id: message.id }, 'SENT', at, null, waId);
    await this.applyUnmatched(waId);
  }

  async markFailed(message: OutcomeSubject, at: number, error: string): Promise<void> {
    if (this.#statusEvent)
      await this.#applyWithEvent(
        this.#statusEvent,
        { ...message, waId: null },
        { status: 'FAILED', at, error, network: () => null },
        {},
      );
    else await this.advance({ id: message.id }, 'FAILED', at, error);
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
    const accepting = this.#accepting.get(waId);
    if (accepting) await accepting;
    let known = (await this.#knownByWaId(waId))[0];
    if (known && known.status_rank + 1 < statusRank(status)) {
      // A step skipped (READ straight after SENT) may wait as unmatched: another node took it before the
      // send recorded this id, and the sending node has not applied it yet. Applied first, in order, it
      // moves the message and publishes its event, instead of arriving after READ as a late step.
      await this.applyUnmatched(waId);
      known = (await this.#knownByWaId(waId))[0];
    }
    if (known) {
      // Most reports repeat what is known already (the network's `sent` after the send's own SENT):
      // settle those with this one read instead of a transaction.
      if (known.status === 'FAILED') return true;
      if (known.status_rank < statusRank(status)) {
        if (this.#statusEvent)
          await this.#applyWithEvent(this.#statusEvent, subjectOf(known), { status, at, error, network });
        else await this.advance({ waId }, status, at, error, undefined, network());
      } else if (known.status_rank > statusRank(status))
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
