/**
 * Why the network rejected a template, in its own words (`rejection_info` of a
 * `message_template_status_update`: `{reason, recommendation}`, docs/cloud-api.md §3.6), kept as that
 * JSON beside the reason code, for a stored template and for a verdict that came before its template.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('templates').addColumn('rejection_info', 'text').execute();
  await db.schema.alterTable('early_template_reviews').addColumn('rejection_info', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('templates').dropColumn('rejection_info').execute();
  await db.schema.alterTable('early_template_reviews').dropColumn('rejection_info').execute();
}
