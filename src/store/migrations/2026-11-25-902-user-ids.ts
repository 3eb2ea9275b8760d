/**
 * Users known by a business-scoped user id (docs/cloud-api.md §10): which phone number goes with which id
 * on a business number (the gateway's own contact book, so a user whose number is later withheld keeps
 * their sandbox, window and log), and the id and username a received message came with.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('network_users')
    .addColumn('business_phone', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // Null until a message brings the number with the id.
    .addColumn('phone', 'text')
    .addColumn('username', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_users_pk', ['business_phone', 'user_id'])
    .execute();
  await db.schema.alterTable('inbound_messages').addColumn('user_id', 'text').execute();
  await db.schema.alterTable('inbound_messages').addColumn('username', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').dropColumn('username').execute();
  await db.schema.alterTable('inbound_messages').dropColumn('user_id').execute();
  await db.schema.dropTable('network_users').execute();
}
