/**
 * Send pacing shared by the nodes of one PostgreSQL database (docs/adr/0020-shared-send-pacing.md): one row
 * per business number that has sent, holding when its next send may go (epoch milliseconds, a float: the
 * spacing need not be a whole millisecond); and each number's throughput tier, when it is not the
 * default. A single process on SQLite keeps the slots in memory; the table exists there too so both
 * dialects share one schema.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('send_slots')
    .addColumn('phone_number_id', 'text', (c) => c.primaryKey())
    .addColumn('tat', 'double precision', (c) => c.notNull())
    .execute();
  // On PostgreSQL the slots are UNLOGGED: a booking then commits without waiting for a WAL flush, whose
  // time varies from one commit to the next and would make sends leave late by as much, unevenly. A
  // crash empties the table, which only rests every number's pace.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table send_slots set unlogged`.execute(db);
  }
  await db.schema.alterTable('business_numbers').addColumn('max_sends_per_second', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('business_numbers').dropColumn('max_sends_per_second').execute();
  await db.schema.dropTable('send_slots').execute();
}
