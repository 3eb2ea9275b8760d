/**
 * Campaigns (docs/campaigns.md): one row per broadcast, and one row per recipient, numbered in the
 * audience's order. A recipient's row is its whole progress (queued, being sent under a node's lease,
 * handed to the send pipeline, skipped with the reason); what the network did with the message is the
 * message's own status, found by the recipient's deterministic messageId.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('from_phone', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    .addColumn('start_at', 'bigint')
    .addColumn('time_zone', 'text')
    .addColumn('total', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('campaigns_account')
    .on('campaigns')
    .columns(['account_id', 'created_at'])
    .execute();
  // The runner's question on every node: which campaigns are due or running.
  await db.schema
    .createIndex('campaigns_active')
    .on('campaigns')
    .columns(['status'])
    .where(sql.ref('status'), 'in', ['SCHEDULED', 'RUNNING'])
    .execute();
  await db.schema
    .createTable('campaign_recipients')
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text')
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('line', 'integer')
    .addColumn('variables', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('sent_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_recipients_pk', ['campaign_id', 'seq'])
    .execute();
  // Claims take the lowest queued numbers first; a status filter reads one state.
  await db.schema
    .createIndex('campaign_recipients_by_state')
    .on('campaign_recipients')
    .columns(['campaign_id', 'state', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('campaign_recipients').execute();
  await db.schema.dropTable('campaigns').execute();
}
