/**
 * The customer portal (docs/portal.md): people who sign in to an account, their sessions (stored by the
 * SHA-256 of the cookie token, never the token), failed sign-ins and lockouts. Failures and lockouts live
 * in the database rather than in memory so a lockout holds on every node behind a load balancer.
 * Portable column types only, so one migration serves SQLite and PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('portal_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portal_users_account').on('portal_users').column('account_id').execute();

  await db.schema
    .createTable('portal_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('portal_users.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('portal_sessions_user').on('portal_sessions').column('user_id').execute();

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

  await db.schema
    .createTable('portal_lockouts')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['portal_lockouts', 'portal_sign_in_failures', 'portal_sessions', 'portal_users']) {
    await db.schema.dropTable(table).execute();
  }
}
