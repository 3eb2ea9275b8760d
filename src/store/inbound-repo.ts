/** Messages users sent to the business, as the network delivered them. */
import type { Kysely } from 'kysely';
import type { Database, InboundMessagesTable } from './schema.ts';

export type InboundRow = InboundMessagesTable;

export function inboundRepo(db: Kysely<Database>) {
  return {
    /** Stores one inbound message; false when the network delivered this id before (its retries repeat). */
    async insertOnce(row: InboundRow): Promise<boolean> {
      const r = await db
        .insertInto('inbound_messages')
        .values(row)
        .onConflict((oc) => oc.column('wa_id').doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** Messages learn their account once routed (a sandbox message only after its command is handled). */
    async assignAccount(waId: string, accountId: string): Promise<void> {
      await db
        .updateTable('inbound_messages')
        .set({ account_id: accountId })
        .where('wa_id', '=', waId)
        .execute();
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
