/** When each portal user last signed in, for the account's member list (docs/portal.md, "Team"). */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_users').addColumn('last_sign_in_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_users').dropColumn('last_sign_in_at').execute();
}
