/**
 * The inbox (docs/inbox.md): one conversation per (account, business number, user), written when a
 * received message is published, and the indexes that read a conversation's thread both ways without a
 * scan of the account's messages.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbox_conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('business_phone', 'text', (c) => c.notNull())
    .addColumn('user_phone', 'text', (c) => c.notNull())
    .addColumn('profile_name', 'text')
    .addColumn('preview', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'bigint', (c) => c.notNull())
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('assignee_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('inbox_conversations_pair', ['account_id', 'business_phone', 'user_phone'])
    .execute();
  await db.schema
    .createIndex('inbox_conversations_recent')
    .on('inbox_conversations')
    .columns(['account_id', 'last_activity_at'])
    .execute();
  await db.schema
    .createIndex('inbound_messages_thread')
    .on('inbound_messages')
    .columns(['account_id', 'user_phone', 'received_at'])
    .execute();
  // One more entry per send: what a thread costs to read otherwise is a scan of the account's messages.
  await db.schema
    .createIndex('messages_thread')
    .on('messages')
    .columns(['account_id', 'to_phone', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_thread').execute();
  await db.schema.dropIndex('inbound_messages_thread').execute();
  await db.schema.dropTable('inbox_conversations').execute();
}
