/** Messages users sent to the business, as the network delivered them. */
import type { Kysely } from 'kysely';
import type { Database, InboundMessagesTable } from './schema.ts';

export type InboundRow = InboundMessagesTable;

export function inboundRepo(db: Kysely<Database>) {
  return {
    /**
     * Stores a message once per network id (the network repeats deliveries) and returns the stored row
     * while it still waits to be handled: on its first delivery, or on a redelivery after a delivery was
     * interrupted before the message was handled. Null once it was handled.
     */
    async storeOnce(row: InboundRow): Promise<InboundRow | null> {
      const r = await db
        .insertInto('inbound_messages')
        .values(row)
        .onConflict((oc) => oc.column('wa_id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) return row;
      const stored = await db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('wa_id', '=', row.wa_id)
        .where('handled_at', 'is', null)
        .executeTakeFirst();
      return stored ?? null;
    },

    /**
     * Marks the message handled, with its account (null: nobody's). False when another delivery marked
     * it first: called in the transaction that writes the message's event, so that only one delivery
     * writes it, even when two run at once on two nodes (the row lock decides on PostgreSQL).
     */
    async markHandled(waId: string, accountId: string | null, at: number): Promise<boolean> {
      const r = await db
        .updateTable('inbound_messages')
        .set({ account_id: accountId, handled_at: at })
        .where('wa_id', '=', waId)
        .where('handled_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    listOfAccount(accountId: string, limit = 50): Promise<InboundRow[]> {
      return db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('received_at', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type InboundRepo = ReturnType<typeof inboundRepo>;
