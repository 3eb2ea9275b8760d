/**
 * Accounts, keys, numbers, sandbox membership, conversation windows, sent messages and inbound messages.
 * Written once for both dialects: only portable column types (text, integer, bigint) and constraints.
 * Migrations import no application code, so they stay valid as the code moves on.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAccounts(db);
  await createApiKeys(db);
  await createBusinessNumbers(db);
  await createSandboxMembers(db);
  await createConversationWindows(db);
  await createMessages(db);
  await createMessageStatusEvents(db);
  await createUnmatchedStatuses(db);
  await createInboundMessages(db);
}

async function createAccounts(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('join_code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

async function createApiKeys(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();
}

async function createBusinessNumbers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('business_numbers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('phone', 'text', (c) => c.notNull().unique())
    .addColumn('phone_number_id', 'text', (c) => c.notNull())
    .addColumn('access_token_enc', 'text', (c) => c.notNull())
    .addColumn('session_check', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('business_numbers_phone_number_id')
    .on('business_numbers')
    .column('phone_number_id')
    .execute();
}

async function createSandboxMembers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_members')
    .addColumn('sandbox_phone', 'text', (c) => c.notNull())
    .addColumn('user_phone', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_members_pk', ['sandbox_phone', 'user_phone'])
    .execute();
}

async function createConversationWindows(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversation_windows')
    .addColumn('business_phone', 'text', (c) => c.notNull())
    .addColumn('user_phone', 'text', (c) => c.notNull())
    .addColumn('last_inbound_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_windows_pk', ['business_phone', 'user_phone'])
    .execute();
}

async function createMessages(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('client_message_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('from_phone', 'text', (c) => c.notNull())
    .addColumn('to_phone', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('wa_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // The deduplication guarantee lives here, in the database, so it holds across gateway nodes.
    .addUniqueConstraint('messages_account_client_id', ['account_id', 'client_message_id'])
    .execute();
  await db.schema.createIndex('messages_wa_id').on('messages').column('wa_id').execute();
}

async function createMessageStatusEvents(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_status_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('message_status_events_message')
    .on('message_status_events')
    .column('message_id')
    .execute();
}

async function createUnmatchedStatuses(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('unmatched_statuses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wa_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('unmatched_statuses_wa_id').on('unmatched_statuses').column('wa_id').execute();
}

async function createInboundMessages(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbound_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.references('accounts.id'))
    .addColumn('wa_id', 'text', (c) => c.notNull().unique())
    .addColumn('business_phone', 'text', (c) => c.notNull())
    .addColumn('user_phone', 'text', (c) => c.notNull())
    .addColumn('profile_name', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('inbound_messages_account')
    .on('inbound_messages')
    .columns(['account_id', 'received_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'inbound_messages',
    'unmatched_statuses',
    'message_status_events',
    'messages',
    'conversation_windows',
    'sandbox_members',
    'business_numbers',
    'api_keys',
    'accounts',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
