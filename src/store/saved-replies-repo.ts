/** The inbox's saved replies (src/domain/ports/saved-replies.ts), every query scoped by account. */
import { type Kysely, sql } from 'kysely';
import type { SavedRepliesStore, SavedReply } from '../domain/ports/saved-replies.ts';
import type { Database } from './schema.ts';
import type { SavedRepliesTable } from './schema-campaigns.ts';

const savedReply = (r: SavedRepliesTable): SavedReply => ({
  id: r.id,
  accountId: r.account_id,
  shortcut: r.shortcut,
  text: r.text,
  createdAt: Number(r.created_at),
});

/** Stored only while the account has fewer than `max`, and only if its shortcut is free: one statement. */
async function insertSavedReply(
  db: Kysely<Database>,
  reply: SavedReply,
  max: number,
): Promise<'stored' | 'taken' | 'full'> {
  const stored = await db
    .insertInto('saved_replies')
    .columns(['id', 'account_id', 'shortcut', 'text', 'created_at'])
    .expression(
      db
        .selectNoFrom([
          sql<string>`${reply.id}`.as('id'),
          sql<string>`${reply.accountId}`.as('account_id'),
          sql<string>`${reply.shortcut}`.as('shortcut'),
          sql<string>`${reply.text}`.as('text'),
          sql<number>`cast(${reply.createdAt} as bigint)`.as('created_at'),
        ])
        .where(
          sql<boolean>`(select count(*) from saved_replies where account_id = ${reply.accountId}) < ${max}`,
        ),
    )
    .onConflict((oc) => oc.columns(['account_id', 'shortcut']).doNothing())
    .executeTakeFirst();
  if (Number(stored.numInsertedOrUpdatedRows ?? 0) > 0) return 'stored';
  const taken = await db
    .selectFrom('saved_replies')
    .select('id')
    .where('account_id', '=', reply.accountId)
    .where('shortcut', '=', reply.shortcut)
    .executeTakeFirst();
  return taken ? 'taken' : 'full';
}

export function savedRepliesRepo(db: Kysely<Database>): SavedRepliesStore {
  return {
    async list(accountId) {
      const rows = await db
        .selectFrom('saved_replies')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('shortcut')
        .execute();
      return rows.map(savedReply);
    },

    async find(accountId, id) {
      const row = await db
        .selectFrom('saved_replies')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && savedReply(row);
    },

    insert: (reply, max) => insertSavedReply(db, reply, max),

    async remove(accountId, id) {
      const r = await db
        .deleteFrom('saved_replies')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
