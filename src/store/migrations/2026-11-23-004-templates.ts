/**
 * Message templates (docs/contract.md §5) and the media uploaded for their headers.
 *
 * A template is identified by the network's id (the id Meta's tools show, so support conversations use one
 * id). `network_name` is the name the network knows: the client's name, except on the shared sandbox
 * number, where every account's templates live in one WhatsApp Business Account and names are made unique
 * per account (docs/adr/0008-sandbox-template-names.md).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('network_name', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('rejected_reason', 'text', (c) => c.notNull())
    .addColumn('quality_score', 'text', (c) => c.notNull())
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('edit_times', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One name per language per number and account, enforced where concurrent creates meet.
  await db.schema
    .createIndex('templates_account_phone_name_language')
    .on('templates')
    .columns(['account_id', 'phone', 'name', 'language'])
    .unique()
    .execute();

  await db.schema
    .createTable('template_media')
    .addColumn('handle', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('template_media').execute();
  await db.schema.dropTable('templates').execute();
}
