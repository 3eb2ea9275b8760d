/**
 * WhatsApp Flows of an account (docs/contract.md §4), the counter that gives them their integer ids, and the
 * WABA id of a business number (flows live in a WhatsApp Business Account, not on a number).
 *
 * Flow ids are integers assigned by the gateway and unique across the database. They come from a counter
 * row bumped with `update ... returning` rather than from SQLite's rowid or a PostgreSQL sequence: the
 * same portable statement on both dialects, and atomic when several gateway nodes share PostgreSQL.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('id_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into id_counters (name, value) values ('flows', 0)`.execute(db);

  await db.schema
    .createTable('flows')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('wa_flow_id', 'text', (c) => c.notNull())
    .addColumn('flow_json', 'text', (c) => c.notNull())
    .addColumn('validation_errors', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The list is per account, newest first; a send may name the flow by the network's id.
  await db.schema
    .createIndex('flows_account_created')
    .on('flows')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('flows_account_wa_flow_id')
    .on('flows')
    .columns(['account_id', 'wa_flow_id'])
    .execute();

  await db.schema.alterTable('business_numbers').addColumn('waba_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_numbers').dropColumn('waba_id').execute();
  await db.schema.dropTable('flows').execute();
  await db.schema.dropTable('id_counters').execute();
}
