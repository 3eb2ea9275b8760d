/**
 * One-time links into the portal (docs/portal.md#one-time-links): an account made outside the portal (the
 * demo account of a first start, the CLI's `accounts create`) gets its portal users through them. A link
 * is kept by the SHA-256 of its token, never the token; it expires, and using it marks it used.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portal_invites')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    // Null: whoever opens the link chooses the email (the demo account has none).
    .addColumn('email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('portal_invites_account').on('portal_invites').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('portal_invites').execute();
}
