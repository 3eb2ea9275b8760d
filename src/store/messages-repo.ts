/** Messages the gateway sent: the deduplication reservation, the network id, and the status history. */
import type { Kysely } from 'kysely';
import { newId } from '../domain/ids.ts';
import { type MessageStatus, statusRank } from '../domain/message-status.ts';
import type { Database, MessagesTable } from './schema.ts';

export type MessageRow = MessagesTable;

export interface StatusEvent {
  status: string;
  at: number;
  error: string | null;
}

export interface MessageHooks {
  /** Runs in the transaction that moved the message, so what it writes (an event) commits with it. */
  onStatusChange?(
    trx: Kysely<Database>,
    message: MessageRow,
    status: MessageStatus,
    at: number,
    error: string | null,
  ): Promise<void>;
}

export function messagesRepo(db: Kysely<Database>, hooks: MessageHooks = {}) {
  /**
   * Moves one message forward to `status` if that is forward; returns whether it moved. `waId` recorded
   * in the same statement saves the send path a write.
   */
  async function advance(
    where: { id: string } | { waId: string },
    status: MessageStatus,
    at: number,
    error: string | null,
    recordWaId?: string,
  ) {
    return db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('messages')
        .set({
          status,
          status_rank: statusRank(status),
          error,
          updated_at: at,
          ...(recordWaId ? { wa_id: recordWaId } : {}),
        })
        .where('status_rank', '<', statusRank(status))
        .where('status', '!=', 'FAILED')
        .returningAll();
      query = 'id' in where ? query.where('id', '=', where.id) : query.where('wa_id', '=', where.waId);
      const moved = await query.execute();
      for (const row of moved) {
        await trx
          .insertInto('message_status_events')
          .values({ id: newId('mse'), message_id: row.id, status, at, error })
          .execute();
        await hooks.onStatusChange?.(trx, row, status, at, error);
      }
      return moved.length > 0;
    });
  }

  async function applyUnmatched(waId: string): Promise<void> {
    const pending = await db
      .selectFrom('unmatched_statuses')
      .selectAll()
      .where('wa_id', '=', waId)
      .orderBy('at')
      .execute();
    for (const s of pending) {
      await advance({ waId }, s.status as MessageStatus, s.at, s.error);
      await db.deleteFrom('unmatched_statuses').where('id', '=', s.id).execute();
    }
  }

  return {
    /**
     * Claims `client_message_id` for this account. Returns null when the claim is ours, otherwise the row that
     * holds it. The unique constraint decides, so two nodes racing on one id cannot both win.
     */
    async reserve(
      row: Omit<MessageRow, 'status' | 'status_rank' | 'wa_id' | 'error'>,
    ): Promise<MessageRow | null> {
      const inserted = await db
        .insertInto('messages')
        .values({ ...row, status: 'PENDING', status_rank: 0, wa_id: null, error: null })
        .onConflict((oc) => oc.columns(['account_id', 'client_message_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) return null;
      const existing = await this.findByClientId(row.account_id, row.client_message_id);
      // The holder can vanish between the two statements (a failed send releases its claim): claim again.
      return existing ?? this.reserve(row);
    },

    findByClientId(accountId: string, clientMessageId: string): Promise<MessageRow | undefined> {
      return db
        .selectFrom('messages')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('client_message_id', '=', clientMessageId)
        .executeTakeFirst();
    },

    /** Gives a claim back when the network surely did not take the message, so the client may retry. */
    async release(id: string): Promise<void> {
      await db.deleteFrom('messages').where('id', '=', id).where('status', '=', 'PENDING').execute();
    },

    /** The network accepted the message: record its id, then apply any status that outran the answer. */
    async markAccepted(id: string, waId: string, at: number): Promise<void> {
      // The id is committed before looking for early statuses, not in one transaction with that look: with
      // the status webhook doing "insert unmatched, then look for the message", whichever side writes
      // second is then certain to see the other's write.
      await advance({ id }, 'SENT', at, null, waId);
      await applyUnmatched(waId);
    },

    async markFailed(id: string, at: number, error: string): Promise<void> {
      await advance({ id }, 'FAILED', at, error);
    },

    /** A status from the network. Unknown ids are kept until the send that owns them records its id. */
    async applyNetworkStatus(
      waId: string,
      status: MessageStatus,
      at: number,
      error: string | null,
    ): Promise<void> {
      const known = await db
        .selectFrom('messages')
        .select(['status', 'status_rank'])
        .where('wa_id', '=', waId)
        .executeTakeFirst();
      if (known) {
        // Most reports repeat what is known already (the network's `sent` after the send's own SENT):
        // settle those with this one read instead of a transaction.
        if (known.status !== 'FAILED' && known.status_rank < statusRank(status))
          await advance({ waId }, status, at, error);
        return;
      }
      await db
        .insertInto('unmatched_statuses')
        .values({ id: newId('ust'), wa_id: waId, status, at, error })
        .execute();
      const linked = await db
        .selectFrom('messages')
        .select('id')
        .where('wa_id', '=', waId)
        .executeTakeFirst();
      if (linked) await applyUnmatched(waId);
    },

    timeline(messageId: string): Promise<StatusEvent[]> {
      return (
        db
          .selectFrom('message_status_events')
          .select(['status', 'at', 'error'])
          .where('message_id', '=', messageId)
          .execute()
          // Statuses only move forward, so their rank is their order; network times have only
          // second resolution and cannot order events within one second.
          .then((events) =>
            events.sort(
              (a, b) => statusRank(a.status as MessageStatus) - statusRank(b.status as MessageStatus),
            ),
          )
      );
    },
  };
}

export type MessagesRepo = ReturnType<typeof messagesRepo>;
