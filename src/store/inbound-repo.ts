/** Messages users sent to the business, as the network delivered them (src/domain/ports/inbound.ts). */
import type { Kysely } from 'kysely';
import type { InboundMessage, InboundStore } from '../domain/ports/inbound.ts';
import type { Database, InboundMessagesTable } from './schema.ts';

/** The row as the message log reads it. */
export type InboundRow = InboundMessagesTable;

export const inboundMessageOf = (row: InboundRow): InboundMessage => ({
  id: row.id,
  accountId: row.account_id,
  waId: row.wa_id,
  businessPhone: row.business_phone,
  userPhone: row.user_phone,
  userId: row.user_id ?? null,
  username: row.username ?? null,
  profileName: row.profile_name,
  type: row.type,
  payload: row.payload,
  receivedAt: row.received_at,
  handledAt: row.handled_at,
});

const rowOf = (message: InboundMessage): InboundRow => ({
  id: message.id,
  account_id: message.accountId,
  wa_id: message.waId,
  business_phone: message.businessPhone,
  user_phone: message.userPhone,
  user_id: message.userId,
  username: message.username,
  profile_name: message.profileName,
  type: message.type,
  payload: message.payload,
  received_at: message.receivedAt,
  handled_at: message.handledAt,
});

export function inboundRepo(db: Kysely<Database>): InboundStore {
  return {
    /**
     * Stores a message once per network id (the network repeats deliveries) and returns the stored row
     * while it still waits to be handled: on its first delivery, or on a redelivery after a delivery was
     * interrupted before the message was handled. Null once it was handled.
     */
    async storeOnce(message: InboundMessage): Promise<InboundMessage | null> {
      const r = await db
        .insertInto('inbound_messages')
        .values(rowOf(message))
        .onConflict((oc) => oc.column('wa_id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) > 0) return message;
      const stored = await db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('wa_id', '=', message.waId)
        .where('handled_at', 'is', null)
        .executeTakeFirst();
      return stored ? inboundMessageOf(stored) : null;
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

    async listOfAccount(accountId: string, limit = 50): Promise<InboundMessage[]> {
      const rows = await db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('received_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map(inboundMessageOf);
    },

    async findOfAccount(accountId: string, waId: string): Promise<InboundMessage | undefined> {
      const row = await db
        .selectFrom('inbound_messages')
        .selectAll()
        .where('wa_id', '=', waId)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row && inboundMessageOf(row);
    },
  };
}
