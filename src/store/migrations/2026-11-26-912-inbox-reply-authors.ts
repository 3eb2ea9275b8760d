/**
 * Who of the team sent each reply from the inbox (docs/inbox.md): one row per reply, keyed by the
 * account and the reply's `messageId`, so the thread can say which member wrote it. Sends through the API
 * have no row: they were sent by a program, not a member.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbox_reply_authors')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('client_message_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbox_reply_authors_pk', ['account_id', 'client_message_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inbox_reply_authors').execute();
}
