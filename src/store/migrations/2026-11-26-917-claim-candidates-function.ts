/**
 * PostgreSQL: the claim's candidates (src/store/claim-statements.ts) read by a function that plans them
 * with sorting off, so they are always read from the index of pending deliveries in its order, stopping at
 * the limit. SQLite has no such function and needs none: its candidates are one indexed statement.
 *
 * Prepared as a plain statement, the candidates had a regime of the table's statistics in which the plan
 * read every due delivery and sorted them: the plan made while the table was small with few deliveries
 * pending (a new install, a quiet hour), and kept by its connection when a backlog came (a receiver's
 * outage, a burst). Each claim then sorted the whole backlog until autovacuum next analyzed the table
 * (docs/adr/0035-webhook-claims-whatever-the-statistics.md). With `enable_sort` off, a plan that sorts
 * costs more than any other, whatever statistics it is made from and however long it is kept.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // The skip lists are tested on `account_id || ''` and `endpoint_id || ''`: claim-statements.ts says why.
  await sql`
    create function claim_candidates(now_ms bigint, skip_accounts text[], skip_endpoints text[], max_rows int)
    returns table (id text, account_id text, endpoint_id text)
    language plpgsql stable
    set enable_sort = off
    as $$
    begin
      return query
      select d.id, d.account_id, d.endpoint_id from deliveries d
      where d.status = 'pending' and d.next_attempt_at <= now_ms
        and (d.locked_until is null or d.locked_until < now_ms)
        and (d.account_id || '') <> all(skip_accounts) and (d.endpoint_id || '') <> all(skip_endpoints)
      order by d.next_attempt_at, d.id
      limit max_rows;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop function claim_candidates(bigint, text[], text[], int)`.execute(db);
}
