/** The time zone each portal user chose to read times in (docs/portal.md, "Your profile"); null: the browser's. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_users').addColumn('time_zone', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('portal_users').dropColumn('time_zone').execute();
}
