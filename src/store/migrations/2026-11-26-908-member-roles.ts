/**
 * What each portal user may open (src/domain/roles.ts): their role, `owner` for everyone before roles;
 * and the role a one-time link gives the member it adds (null: owner, as links made before roles did).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('portal_users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
    .execute();
  await db.schema.alterTable('portal_invites').addColumn('role', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_invites').dropColumn('role').execute();
  await db.schema.alterTable('portal_users').dropColumn('role').execute();
}
