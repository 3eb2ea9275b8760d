/**
 * Indexes for reads by account of stored files: the sum of an account's header files (its storage
 * quota, counted on every upload) and the copies of a user's media the portal's message log links to.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('template_media_account').on('template_media').column('account_id').execute();
  await db.schema
    .createIndex('media_files_account_network_id')
    .on('media_files')
    .columns(['account_id', 'network_media_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('media_files_account_network_id').execute();
  await db.schema.dropIndex('template_media_account').execute();
}
