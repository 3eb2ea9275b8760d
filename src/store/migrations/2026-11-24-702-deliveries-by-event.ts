/**
 * Deliveries looked up by their event: data retention keeps an event while one of its deliveries is still
 * pending and removes the deliveries with the event (src/store/retention-repo.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('deliveries_event').on('deliveries').column('event_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deliveries_event').execute();
}
