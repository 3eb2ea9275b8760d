/**
 * The due deliveries in the order the dispatcher claims them (next attempt, then id: src/store/
 * claim-statements.ts), read from one index. The old index had only the next attempt: deliveries due at the
 * same moment (a replay, a backlog after an outage) were sorted whole by id for every claim, 3 ms a claim
 * with 10,000 of them waiting on SQLite instead of 0.08 ms. It replaces that index, which nothing else used.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('deliveries_due_order')
    .on('deliveries')
    .columns(['status', 'next_attempt_at', 'id'])
    .execute();
  await db.schema.dropIndex('deliveries_due').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('deliveries_due')
    .on('deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema.dropIndex('deliveries_due_order').execute();
}
