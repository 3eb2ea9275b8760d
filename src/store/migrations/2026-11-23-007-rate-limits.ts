/**
 * Per-key rate limits shared by the nodes of one PostgreSQL database (docs/adr/0011-rate-limits.md): one
 * row per API key that has sent a request, holding its theoretical arrival time (epoch milliseconds, a
 * float: the interval between requests need not be a whole millisecond). A single process on SQLite
 * keeps the same numbers in memory; the table exists there too so both dialects share one schema.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('tat', 'double precision', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
