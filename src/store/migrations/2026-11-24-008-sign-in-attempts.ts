/**
 * Sign-in attempts counted before the password is checked (docs/portal.md, Lockout): one row per email in
 * `portal_lockouts` now carries the count of the current window and when that window started, moved by one
 * atomic upsert per attempt (src/store/portal-repo.ts), so parallel attempts cannot all read "not locked"
 * before any of them is recorded. The table of single failures is no longer used. A lockout running at
 * the upgrade keeps holding (its `locked_until` is kept); counts below the limit start afresh.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds only one column per ALTER TABLE.
  await db.schema
    .alterTable('portal_lockouts')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('portal_lockouts')
    .addColumn('window_started_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropTable('portal_sign_in_failures').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portal_sign_in_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('portal_sign_in_failures_email_at')
    .on('portal_sign_in_failures')
    .columns(['email', 'at'])
    .execute();
  await db.schema.alterTable('portal_lockouts').dropColumn('window_started_at').execute();
  await db.schema.alterTable('portal_lockouts').dropColumn('failures').execute();
}
