/**
 * Meta's messaging limit, kept by the gateway (docs/campaigns.md, "The messaging limit"; ADR 0028): each
 * number's limit (null = unlimited), and the users each number reached with a campaign message in the
 * last 24 hours, one row per (number, user), so that counting them is an index range.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_numbers').addColumn('messaging_limit', 'integer').execute();
  await db.schema
    .createTable('number_reach')
    .addColumn('business_phone', 'text', (c) => c.notNull())
    // The user's key (docs/adr/0023): their phone number, or their business-scoped user id.
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('reached_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('number_reach_pk', ['business_phone', 'user_key'])
    .execute();
  await db.schema
    .createIndex('number_reach_recent')
    .on('number_reach')
    .columns(['business_phone', 'reached_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('number_reach').execute();
  await db.schema.alterTable('business_numbers').dropColumn('messaging_limit').execute();
}
