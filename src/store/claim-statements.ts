/**
 * The SQL of the dispatcher's claims (delivery-claims.ts), compiled once per dialect (prepared.ts): a busy
 * dispatcher claims several times for every few deliveries, and building the queries anew each time cost
 * more than running them. Lists are single parameters, so each statement keeps one text whatever their
 * lengths: arrays on PostgreSQL (so each connection also prepares it once, docs/adr/0012), JSON arrays
 * read with `json_each` on SQLite.
 */
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { prepare } from './prepared.ts';
import type { Database, DeliveriesTable } from './schema.ts';

/**
 * The columns a claim returns: what an attempt needs, named (statements that return `*` are not prepared,
 * pg-named-statements.ts), and nothing more: every column returned is described and parsed for each claim.
 */
const DELIVERY_COLUMNS = [
  'deliveries.id',
  'deliveries.account_id',
  'deliveries.event_id',
  'deliveries.endpoint_id',
  'deliveries.attempt_count',
] as const;

/** What an attempt needs besides the delivery: the event, and the endpoint as it is now. */
const EVENT_AND_ENDPOINT_COLUMNS = [
  'events.type as event_type',
  'events.payload as event_payload',
  'webhook_endpoints.url as ep_url',
  'webhook_endpoints.secret_enc as ep_secret_enc',
  'webhook_endpoints.previous_secret_enc as ep_previous_secret_enc',
  'webhook_endpoints.previous_secret_until as ep_previous_secret_until',
  'webhook_endpoints.disabled_at as ep_disabled_at',
  'webhook_endpoints.failing_since as ep_failing_since',
] as const;

export interface ClaimRow
  extends Pick<DeliveriesTable, 'id' | 'account_id' | 'event_id' | 'endpoint_id' | 'attempt_count'> {
  event_type: string;
  event_payload: string;
  ep_url: string;
  ep_secret_enc: string;
  ep_previous_secret_enc: string | null;
  ep_previous_secret_until: number | null;
  ep_disabled_at: number | null;
  ep_failing_since: number | null;
}

/**
 * Still due and not claimed by anyone (a claim that expired counts as none). `'pending'` is written into
 * the text, not passed as a parameter: only then can a prepared statement use the index of pending
 * deliveries (migration 916), whose condition it is.
 */
function due<O>(q: SelectQueryBuilder<Database, 'deliveries', O>, now: number) {
  return q
    .where(sql<boolean>`deliveries.status = 'pending'`)
    .where('deliveries.next_attempt_at', '<=', now)
    .where((eb) =>
      eb.or([eb('deliveries.locked_until', 'is', null), eb('deliveries.locked_until', '<', now)]),
    );
}

/** A JSON array parameter as a list SQLite can test against. */
const jsonList = (json: string) => sql`(select value from json_each(${json}))`;

export interface ClaimStatements {
  candidates(
    db: Kysely<Database>,
    now: number,
    skipAccounts: readonly string[],
    skipEndpoints: readonly string[],
    limit: number,
  ): Promise<{ id: string; account_id: string; endpoint_id: string }[]>;
  /** Marks the picked that are still due and unclaimed; returns them with their event and endpoint. */
  mark(db: Kysely<Database>, picked: string[], now: number, lockedUntil: number): Promise<ClaimRow[]>;
}

/**
 * The oldest due deliveries, read in order from the index of pending deliveries, stopping at the limit, by
 * the function `claim_candidates` (migration 917): it plans its statement with sorting off, so that no
 * statistics of the table can make it read and sort every due delivery for each claim
 * (docs/adr/0035-webhook-claims-whatever-the-statistics.md).
 *
 * The skip lists are tested on `account_id || ''` and `endpoint_id || ''`, which the planner cannot look
 * up in the columns' statistics. Tested on the columns, a generic plan (the statement is prepared,
 * pg-named-statements.ts) estimated `<> all(list)` from those statistics: on an install with one account
 * or one endpoint, which is most of them, it expected no row to pass, and read and sorted every due
 * delivery for each claim instead of the first few in order (6.6 ms a claim with 17,000 waiting, against
 * 0.1 ms). Exported for test/store/delivery-claims.test.ts, which checks the plan.
 */
export function pgCandidatesQuery(
  db: Kysely<Database>,
  now: number,
  skipAccounts: string[],
  skipEndpoints: string[],
  limit: number,
) {
  const query = sql<{ id: string; account_id: string; endpoint_id: string }>`
    select id, account_id, endpoint_id
    from claim_candidates(${now}::bigint, ${skipAccounts}::text[], ${skipEndpoints}::text[], ${limit}::int)`;
  return { compile: () => query.compile(db) };
}

const pgCandidates = prepare(pgCandidatesQuery, 4);

/**
 * Marking and reading in one statement; rows another node is marking this instant are skipped.
 *
 * The picked ids drive it (primary-key lookups), and the conditions of due() are tested on the rows found,
 * written so that no index can serve them (`|| ''`, unary `+`): the index of pending deliveries is then out
 * of the planner's reach (migration 916 says why it must be). Exported for
 * test/store/delivery-claims.test.ts, which checks the plan.
 */
export function pgMarkQuery(db: Kysely<Database>, picked: string[], now: number, lockedUntil: number) {
  return db
    .with('marked', (q) =>
      q
        .updateTable('deliveries')
        .set({ locked_until: lockedUntil })
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('deliveries')
            .select('deliveries.id')
            .where((eb) => eb('deliveries.id', '=', eb.fn.any(eb.val(picked))))
            .where(sql<boolean>`(deliveries.status || '') = ${'pending'}`)
            .where(sql<boolean>`+deliveries.next_attempt_at <= ${now}`)
            .where((eb) =>
              eb.or([eb('deliveries.locked_until', 'is', null), eb('deliveries.locked_until', '<', now)]),
            )
            .forUpdate()
            .skipLocked(),
        )
        .returning(DELIVERY_COLUMNS),
    )
    .selectFrom('marked as deliveries')
    .innerJoin('events', 'events.id', 'deliveries.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'deliveries.endpoint_id')
    .select(DELIVERY_COLUMNS)
    .select(EVENT_AND_ENDPOINT_COLUMNS);
}

const pgMark = prepare(pgMarkQuery, 3);

const sqliteCandidates = prepare(
  (db: Kysely<Database>, now: number, skipAccounts: string, skipEndpoints: string, limit: number) =>
    due(db.selectFrom('deliveries').select(['id', 'account_id', 'endpoint_id']), now)
      .where(sql<boolean>`account_id not in ${jsonList(skipAccounts)}`)
      .where(sql<boolean>`endpoint_id not in ${jsonList(skipEndpoints)}`)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit),
  4,
);

/**
 * The picked ids drive the statement (each a primary-key lookup). Left to itself, SQLite's planner, which
 * cannot tell how long the JSON list is, walked the whole due index and tested each row against the list:
 * about 1 ms a claim with 10,000 deliveries waiting.
 */
const sqliteMark = prepare(
  (db: Kysely<Database>, picked: string, now: number, lockedUntil: number) =>
    db
      .updateTable('deliveries')
      .set({ locked_until: lockedUntil })
      .where(sql<boolean>`deliveries.id in ${jsonList(picked)}`)
      // The conditions of due(), tested on the rows found by id: the unary `+` keeps SQLite from reading
      // them through the due index instead.
      .where(sql<boolean>`+deliveries.status = ${'pending'}`)
      .where(sql<boolean>`+deliveries.next_attempt_at <= ${now}`)
      .where((eb) =>
        eb.or([eb('deliveries.locked_until', 'is', null), eb('deliveries.locked_until', '<', now)]),
      )
      .returning('id'),
  3,
);

const sqliteClaimed = prepare(
  (db: Kysely<Database>, ids: string) =>
    db
      .selectFrom('deliveries')
      .innerJoin('events', 'events.id', 'deliveries.event_id')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'deliveries.endpoint_id')
      .select(DELIVERY_COLUMNS)
      .select(EVENT_AND_ENDPOINT_COLUMNS)
      .where(sql<boolean>`deliveries.id in ${jsonList(ids)}`),
  1,
);

export const postgresClaims: ClaimStatements = {
  async candidates(db, now, skipAccounts, skipEndpoints, limit) {
    return (await pgCandidates(db, now, [...skipAccounts], [...skipEndpoints], limit)).rows;
  },
  async mark(db, picked, now, lockedUntil) {
    return (await pgMark(db, picked, now, lockedUntil)).rows;
  },
};

export const sqliteClaims: ClaimStatements = {
  async candidates(db, now, skipAccounts, skipEndpoints, limit) {
    const list = (ids: readonly string[]) => JSON.stringify(ids);
    return (await sqliteCandidates(db, now, list(skipAccounts), list(skipEndpoints), limit)).rows;
  },
  async mark(db, picked, now, lockedUntil) {
    const marked = (await sqliteMark(db, JSON.stringify(picked), now, lockedUntil)).rows;
    if (marked.length === 0) return [];
    return (await sqliteClaimed(db, JSON.stringify(marked.map((m) => m.id)))).rows;
  },
};
