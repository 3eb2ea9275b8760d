/**
 * Fills a gateway's database with past traffic, for the large-store rows of the benchmark: `count` sent
 * messages of one account, spread evenly over the last `days` days, each with the id, network id and
 * status the gateway itself would have written (ids carry their time, src/lib/ids.ts, which retention
 * reads). Run against a stopped gateway's database, after its migrations.
 *
 * SQLite takes multi-row inserts in large transactions; PostgreSQL takes whole columns as arrays
 * (`unnest`), one statement per batch, which is many times faster than rows of parameters.
 */
import { sql } from 'kysely';
import { newId } from '../src/lib/ids.ts';
import type { Store } from '../src/store/connect.ts';

const BATCH = 2000;
const DAY_MS = 86_400_000;

interface Row {
  id: string;
  client_message_id: string;
  wa_id: string;
  created_at: number;
}

function batchOf(start: number, size: number, count: number, days: number, now: number): Row[] {
  const span = days * DAY_MS;
  return Array.from({ length: size }, (_, i) => {
    const n = start + i;
    const at = now - span + Math.floor((n * span) / count);
    const id = newId('msg', at);
    return { id, client_message_id: `seed-${n}`, wa_id: `wamid.seed${n}`, created_at: at };
  });
}

async function insertSqlite(store: Store, accountId: string, rows: Row[]): Promise<void> {
  await store.db
    .insertInto('messages')
    .values(
      rows.map((r) => ({
        id: r.id,
        account_id: accountId,
        client_message_id: r.client_message_id,
        request_hash: 'seed',
        kind: 'text',
        from_phone: '14155550100',
        to_phone: '254712340000',
        content: '{"type":"text","text":{"body":"seed"}}',
        wa_id: r.wa_id,
        status: 'READ',
        status_rank: 3,
        error: null,
        created_at: r.created_at,
        updated_at: r.created_at,
      })),
    )
    .execute();
}

async function insertPostgres(store: Store, accountId: string, rows: Row[]): Promise<void> {
  const column = (pick: (r: Row) => string | number) => rows.map(pick);
  await sql`
    insert into messages (id, account_id, client_message_id, request_hash, kind, from_phone, to_phone,
      content, wa_id, status, status_rank, error, created_at, updated_at)
    select id, ${accountId}, client_message_id, 'seed', 'text', '14155550100', '254712340000',
      '{"type":"text","text":{"body":"seed"}}', wa_id, 'READ', 3, null, created_at, created_at
    from unnest(${column((r) => r.id)}::text[], ${column((r) => r.client_message_id)}::text[],
      ${column((r) => r.wa_id)}::text[], ${column((r) => r.created_at)}::bigint[])
      as t(id, client_message_id, wa_id, created_at)`.execute(store.db);
}

/** Inserts `count` messages of `accountId` spread over the last `days` days; returns the seconds it took. */
export async function seedMessages(
  store: Store,
  accountId: string,
  count: number,
  days: number,
  now = Date.now(),
): Promise<number> {
  const started = performance.now();
  const insert = store.dialect === 'postgres' ? insertPostgres : insertSqlite;
  for (let start = 0; start < count; start += BATCH) {
    await insert(store, accountId, batchOf(start, Math.min(BATCH, count - start), count, days, now));
  }
  return Math.round((performance.now() - started) / 100) / 10;
}
