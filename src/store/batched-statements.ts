/**
 * The batched forms (./read-batches.ts) of the reads every send and every status make, on PostgreSQL:
 * each takes the list of keys as one array parameter, so its text never changes and each connection
 * prepares it once (./pg-named-statements.ts). Each returns its key column, by which the rows go back to
 * the reads that asked.
 */
import { type Kysely, sql } from 'kysely';
import type { ClaimRow } from './message-rows.ts';
import type { KnownMessage } from './message-statements.ts';
import type { Database, UnmatchedStatusesTable } from './schema.ts';

/** Keys of two parts (a business number and a user) joined for batchedRead. */
export const pairKey = (a: string, b: string) => `${a}\n${b}`;

export async function liveKeysByHash(db: Kysely<Database>, hashes: string[]) {
  const { rows } = await sql<{ hash: string; id: string; account_id: string }>`
    select hash, id, account_id from api_keys where hash = any(${hashes}::text[]) and revoked_at is null`.execute(
    db,
  );
  return rows;
}

export interface MemberWithWindowRow {
  sandbox_phone: string;
  user_phone: string;
  account_id: string;
  last_inbound_at: number | null;
}

/** Memberships with their windows, for keys made by pairKey(sandbox number, user). */
export async function membersWithWindows(db: Kysely<Database>, keys: string[]) {
  const sandboxes = keys.map((k) => k.slice(0, k.indexOf('\n')));
  const users = keys.map((k) => k.slice(k.indexOf('\n') + 1));
  const { rows } = await sql<MemberWithWindowRow>`
    select m.sandbox_phone, m.user_phone, m.account_id, w.last_inbound_at
    from sandbox_members m
    left join conversation_windows w on w.business_phone = m.sandbox_phone and w.user_phone = m.user_phone
    where (m.sandbox_phone, m.user_phone) in (
      select k.sandbox_phone, k.user_phone from unnest(${sandboxes}::text[], ${users}::text[]) as k(sandbox_phone, user_phone))`.execute(
    db,
  );
  return rows;
}

export type UnmatchedRow = UnmatchedStatusesTable;

/** Statuses that came before their message's network id was recorded, oldest first. */
export async function unmatchedOfMany(db: Kysely<Database>, waIds: string[]) {
  const { rows } = await sql<UnmatchedRow>`
    select id, wa_id, status, at, error, network from unmatched_statuses
    where wa_id = any(${waIds}::text[]) order by at`.execute(db);
  return rows;
}

/** The messages statuses name, with what their events say of them (KnownMessage). */
export async function knownByWaIds(db: Kysely<Database>, waIds: string[]) {
  const { rows } = await sql<KnownMessage>`
    select id, account_id, client_message_id, from_phone, to_phone, wa_id, status, status_rank from messages
    where wa_id = any(${waIds}::text[])`.execute(db);
  return rows;
}

/**
 * Claims of several sends in one statement: the ids of the claims it inserted. A claim whose messageId is
 * taken (by an earlier message, or by another claim of the same statement) inserts nothing, as alone.
 */
export async function insertClaims(db: Kysely<Database>, claims: ClaimRow[]): Promise<Set<string>> {
  const column = <K extends keyof ClaimRow>(key: K) => claims.map((c) => c[key]);
  const { rows } = await sql<{ id: string }>`
    insert into messages (id, account_id, client_message_id, request_hash, kind, from_phone, to_phone, content,
      created_at, updated_at, status, status_rank, wa_id, error)
    select c.id, c.account_id, c.client_message_id, c.request_hash, c.kind, c.from_phone, c.to_phone, c.content,
      c.created_at, c.updated_at, 'PENDING', 0, null, null
    from unnest(${column('id')}::text[], ${column('account_id')}::text[], ${column('client_message_id')}::text[],
      ${column('request_hash')}::text[], ${column('kind')}::text[], ${column('from_phone')}::text[],
      ${column('to_phone')}::text[], ${column('content')}::text[], ${column('created_at')}::bigint[],
      ${column('updated_at')}::bigint[])
      as c(id, account_id, client_message_id, request_hash, kind, from_phone, to_phone, content, created_at,
        updated_at)
    on conflict (account_id, client_message_id) do nothing
    returning id`.execute(db);
  return new Set(rows.map((r) => r.id));
}
