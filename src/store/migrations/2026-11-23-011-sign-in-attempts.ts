/**
 * Sign-in attempts counted before the password is checked (docs/portal.md, Lockout): one row per email in
 * `portal_lockouts` now carries the count of the current window and when that window started, moved by one
 * atomic upsert per attempt (src/store/portal-repo.ts), so parallel attempts cannot all read "not locked"
 * before any of them is recorded. A lockout running at the upgrade keeps holding (its `locked_until` is
 * kept); counts below the limit start afresh.
 *
 * Only columns are added, with defaults: nodes of the previous version keep working beside new ones during
 * a rolling upgrade (docs/operations.md, Upgrades). They still write `portal_sign_in_failures`, which is
 * therefore left in place, unused by this version.
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_lockouts').dropColumn('window_started_at').execute();
  await db.schema.alterTable('portal_lockouts').dropColumn('failures').execute();
}
