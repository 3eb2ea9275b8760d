/** Notes between members on a conversation (src/domain/ports/inbox-notes.ts), scoped by account. */
import type { Kysely } from 'kysely';
import type { InboxNotesStore } from '../domain/ports/inbox-notes.ts';
import type { Database } from './schema.ts';

export function inboxNotesRepo(db: Kysely<Database>): InboxNotesStore {
  return {
    async list(accountId, conversationId, limit) {
      const rows = await db
        .selectFrom('inbox_notes as n')
        // The author's email while they are a member of this account; a member since removed is not named.
        .leftJoin('portal_users as u', (j) =>
          j.onRef('u.id', '=', 'n.author_id').onRef('u.account_id', '=', 'n.account_id'),
        )
        .select(['n.id', 'n.conversation_id', 'n.text', 'n.created_at', 'u.email'])
        .where('n.account_id', '=', accountId)
        .where('n.conversation_id', '=', conversationId)
        .orderBy('n.created_at', 'desc')
        .orderBy('n.id', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => ({
        id: r.id,
        conversationId: r.conversation_id,
        author: r.email ?? null,
        text: r.text,
        createdAt: Number(r.created_at),
      }));
    },

    async add(note) {
      await db
        .insertInto('inbox_notes')
        .values({
          id: note.id,
          account_id: note.accountId,
          conversation_id: note.conversationId,
          author_id: note.authorId,
          text: note.text,
          created_at: note.createdAt,
        })
        .execute();
    },
  };
}
