/**
 * PostgreSQL's statistics of a benchmark's schema, taken as autovacuum takes them in a running install.
 *
 * Each PostgreSQL row starts on a fresh schema, whose tables have no statistics until autovacuum first
 * analyzes them, within a minute or so of their first writes. Until then the planner guesses, and its
 * guesses for the lookup of a status's message (10 % of the table for any list of wa_ids) read the whole
 * messages table for each batch of statuses: a row of 20 s would measure only that first minute of a new
 * install, which the rows are not about. So the rows analyze the schema after their warm-up, as autovacuum
 * would have by then in an install that has run for a while.
 */
import { sql } from 'kysely';
import { openStore } from '../src/store/connect.ts';

export async function analyzeSchema(databaseUrl: string): Promise<void> {
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    const { rows } = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = current_schema()`.execute(store.db);
    for (const { name } of rows) await sql`analyze ${sql.table(name)}`.execute(store.db);
  } finally {
    await store.close();
  }
}
