/**
 * The due index holds only the deliveries still to be attempted: `status = 'pending'` is its condition
 * instead of its first column. It replaces deliveries_due_order (migration 915), which held every
 * delivery ever made.
 *
 * - A year of delivered webhooks no longer sits in the index a claim reads (src/store/claim-statements.ts).
 * - Only a statement that says `status = 'pending'` in its own text can use the index: the claim's
 *   candidates do; the claim's mark, which finds the picked deliveries by id, does not. With the old index
 *   and statistics taken before a backlog built up, PostgreSQL's generic plan for the mark walked the due
 *   index over the whole backlog to find 16 ids: 12 ms a claim with 17,000 deliveries waiting, against
 *   under 1 ms by primary key (docs/adr/0035-webhook-claims-whatever-the-statistics.md).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index deliveries_pending_due on deliveries (next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
  await db.schema.dropIndex('deliveries_due_order').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('deliveries_due_order')
    .on('deliveries')
    .columns(['status', 'next_attempt_at', 'id'])
    .execute();
  await db.schema.dropIndex('deliveries_pending_due').execute();
}
