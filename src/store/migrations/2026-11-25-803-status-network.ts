/**
 * A status that arrives before the send recorded its network id waits in `unmatched_statuses`; it keeps
 * the network's status object as it arrived (`network`, JSON), so its `message.status` event carries it
 * like any other (src/events/payloads.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('unmatched_statuses').addColumn('network', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('unmatched_statuses').dropColumn('network').execute();
}
