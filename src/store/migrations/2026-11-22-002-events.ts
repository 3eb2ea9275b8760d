/**
 * Events and their webhook deliveries: the outbox (`events`), one delivery per (event, endpoint), and one
 * row per delivery attempt. Written in the same transaction as the change they report, so an event can
 * be neither lost nor invented by a crash.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createWebhookEndpoints(db);
  await createEvents(db);
  await createDeliveries(db);
  await createDeliveryAttempts(db);
}

async function createWebhookEndpoints(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_account')
    .on('webhook_endpoints')
    .column('account_id')
    .execute();
}

async function createEvents(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_account_created')
    .on('events')
    .columns(['account_id', 'created_at'])
    .execute();
}

async function createDeliveries(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('deliveries_due')
    .on('deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('deliveries_endpoint')
    .on('deliveries')
    .columns(['endpoint_id', 'created_at'])
    .execute();
}

async function createDeliveryAttempts(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id'))
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('delivery_attempts_delivery')
    .on('delivery_attempts')
    .column('delivery_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['delivery_attempts', 'deliveries', 'events', 'webhook_endpoints']) {
    await db.schema.dropTable(table).execute();
  }
}
