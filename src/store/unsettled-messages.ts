/**
 * Messages whose outcome is still open (docs/adr/0013-settling-unknown-outcomes.md): PENDING while the send
 * runs, and after it when its answer was lost (then `error` says why, and the outcome is *unknown*). The
 * network's status reports settle such a message by the id the send carried; a sweep on every node fails
 * what no report settled in time. Every move is one guarded update, so nodes racing on one message (two
 * status webhooks, a webhook and a sweep, two sweeps) move it once and publish one event.
 */
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { MessageStatus } from '../domain/message-status.ts';
import type { SentMessage, StatusSender, UnsettledStore } from '../domain/ports/messages.ts';
import { sentMessageOf } from './message-rows.ts';
import type { Database, MessagesTable } from './schema.ts';

export interface UnsettledParts {
  settle(
    status: MessageStatus,
    at: number,
    error: string | null,
    change: (trx: Kysely<Database>) => Promise<MessagesTable[]>,
  ): Promise<boolean>;
  applyUnmatched(waId: string): Promise<void>;
}

/** Written out, not bound: only then does it match the partial index messages_unsettled. */
const isPending = sql<boolean>`status = 'PENDING'`;

/** Message `id`, still without a network id, sent from this number (and by this account, if not shared). */
function isOpen(eb: ExpressionBuilder<Database, 'messages'>, id: string, sender: StatusSender) {
  return eb.and([
    eb('id', '=', id),
    isPending,
    eb('wa_id', 'is', null),
    eb('from_phone', '=', sender.phone),
    ...(sender.accountId === null ? [] : [eb('account_id', '=', sender.accountId)]),
  ]);
}

class UnsettledMessages implements UnsettledStore {
  readonly #db: Kysely<Database>;
  readonly #parts: UnsettledParts;

  constructor(db: Kysely<Database>, parts: UnsettledParts) {
    this.#db = db;
    this.#parts = parts;
  }

  /**
   * The send's answer was lost (or its node stopped): the message stays PENDING with `error` saying why,
   * until a status report settles it or the sweep fails it. False when it was settled or marked already.
   */
  async markUnknown(id: string, at: number, error: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('messages')
      .set({ error, updated_at: at })
      .where('id', '=', id)
      .where(isPending)
      .where('error', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The open message a status names by its opaque id, if it was sent from `sender`'s number. */
  async findOpenFor(id: string, sender: StatusSender): Promise<SentMessage | undefined> {
    const row = await this.#db
      .selectFrom('messages')
      .selectAll()
      .where((eb) => isOpen(eb, id, sender))
      .executeTakeFirst();
    return row && sentMessageOf(row);
  }

  /**
   * A network status named the open message `id`: the network took it, as `waId`. Records that (SENT, with
   * its event) and applies the status that said so, which waits among the unmatched ones.
   */
  async settleFromNetwork(id: string, sender: StatusSender, waId: string, at: number): Promise<boolean> {
    const moved = await this.#parts.settle('SENT', at, null, (trx) =>
      trx
        .updateTable('messages')
        .where((eb) => isOpen(eb, id, sender))
        .set({ status: 'SENT', status_rank: 1, wa_id: waId, error: null, updated_at: at })
        .returningAll()
        .execute(),
    );
    if (moved) await this.#parts.applyUnmatched(waId);
    return moved;
  }

  /**
   * Open messages the sweep must act on, oldest first: claims older than `abandonedBefore` that no send
   * finished (their node stopped), and unknown outcomes marked before `unknownBefore`.
   */
  async listUnsettled(abandonedBefore: number, unknownBefore: number, limit: number): Promise<SentMessage[]> {
    const rows = await this.#db
      .selectFrom('messages')
      .selectAll()
      .where(isPending)
      // Both cases imply this (a message is updated after it is created), and the index serves it.
      .where('created_at', '<=', Math.max(abandonedBefore, unknownBefore))
      .where((eb) =>
        eb.or([
          eb.and([eb('error', 'is', null), eb('created_at', '<=', abandonedBefore)]),
          eb.and([eb('error', 'is not', null), eb('updated_at', '<=', unknownBefore)]),
        ]),
      )
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map(sentMessageOf);
  }

  /** No status report settled the unknown outcome in time: FAILED, with its event. */
  failUnsettled(id: string, at: number, error: string): Promise<boolean> {
    return this.#parts.settle('FAILED', at, error, (trx) =>
      trx
        .updateTable('messages')
        .set({ status: 'FAILED', status_rank: 3, error, updated_at: at })
        .where('id', '=', id)
        .where(isPending)
        .where('wa_id', 'is', null)
        .where('error', 'is not', null)
        .returningAll()
        .execute(),
    );
  }
}

export function unsettledMessages(db: Kysely<Database>, parts: UnsettledParts): UnsettledStore {
  const store = new UnsettledMessages(db, parts);
  // Plain, bound functions: the messages repository spreads them into itself.
  return {
    markUnknown: store.markUnknown.bind(store),
    findOpenFor: store.findOpenFor.bind(store),
    settleFromNetwork: store.settleFromNetwork.bind(store),
    listUnsettled: store.listUnsettled.bind(store),
    failUnsettled: store.failUnsettled.bind(store),
  };
}
