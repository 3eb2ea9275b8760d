/**
 * The dispatcher's claims on SQLite and PostgreSQL: oldest due first, only what the dispatcher picks is
 * marked, accounts and endpoints without a free slot are left out, and on PostgreSQL several nodes
 * claiming at once never take the same delivery, and whatever the table's statistics a claim reads the
 * first due deliveries in order from the index and marks the picked by id.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { createAccount } from '../../src/domain/accounts.ts';
import type { DueCandidate } from '../../src/domain/ports/webhook-deliveries.ts';
import { pgCandidatesQuery, pgMarkQuery } from '../../src/store/claim-statements.ts';
import type { Store } from '../../src/store/connect.ts';
import { openStore } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { createPostgresSchema, type PostgresSchema } from '../support/postgres.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

const LOCK_MS = 60_000;

async function endpoint(repos: Repositories, accountId: string, name: string): Promise<string> {
  const row = await repos.webhooks.createEndpoint(
    {
      account_id: accountId,
      url: `https://hooks.example.com/${name}`,
      events: JSON.stringify(['message.received']),
      secret_enc: 'sealed',
    },
    Date.now(),
  );
  return row.id;
}

async function events(store: Store, accountId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await insertEvent(store.db, accountId, 'message.received', { n: i }, Date.now());
  }
}

const everything = { skipAccounts: [], skipEndpoints: [], pick: () => true } as const;

for (const target of storeTargets) {
  describe(`delivery claims on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('only the picked are claimed; skipped accounts and endpoints are not even read', {
      skip,
    }, async () => {
      const a = (await createAccount(repos.accounts, 'A')).id;
      const b = (await createAccount(repos.accounts, 'B')).id;
      const [a1, a2] = [await endpoint(repos, a, 'a1'), await endpoint(repos, a, 'a2')];
      const b1 = await endpoint(repos, b, 'b1');
      await events(store, a, 3); // three deliveries to each of a1 and a2
      await events(store, b, 2);
      const now = Date.now() + 1;

      const offered: DueCandidate[] = [];
      const first = await repos.webhooks.claimDue({
        now,
        lockMs: LOCK_MS,
        limit: 10,
        skipAccounts: [],
        skipEndpoints: [a2],
        pick: (c) => {
          offered.push(c);
          return c.endpointId === a1 && offered.filter((o) => o.endpointId === a1).length <= 2;
        },
      });
      assert.deepEqual(offered.map((c) => c.endpointId).sort(), [a1, a1, a1, b1, b1].sort());
      assert.equal(first.more, false);
      assert.equal(first.lost, 0);
      assert.equal(first.heldBack, 3, 'the third of a1 and both of b1 were read but not picked');
      assert.equal(first.claimed.length, 2);
      const ids = offered.filter((c) => c.endpointId === a1).map((c) => c.id);
      assert.deepEqual(
        first.claimed.map((c) => c.delivery.id),
        ids.slice(0, 2),
        'the oldest due of a1, in order',
      );
      const [claimed] = first.claimed;
      assert.equal(claimed!.endpoint.id, a1);
      assert.equal(claimed!.endpoint.url, 'https://hooks.example.com/a1');
      assert.equal(JSON.parse(claimed!.payload).type, 'message.received');

      const locked = await store.db
        .selectFrom('deliveries')
        .select('id')
        .where('locked_until', '=', now + LOCK_MS)
        .execute();
      assert.deepEqual(locked.map((r) => r.id).sort(), ids.slice(0, 2).sort(), 'only the picked were marked');

      const withoutA = await repos.webhooks.claimDue({
        now,
        lockMs: LOCK_MS,
        limit: 1,
        ...everything,
        skipAccounts: [a],
      });
      assert.equal(withoutA.more, true, 'the one candidate read filled the window');
      assert.deepEqual(
        withoutA.claimed.map((c) => c.endpoint.id),
        [b1],
      );

      await repos.webhooks.releaseClaims(first.claimed.map((c) => c.delivery.id));
      const again = await repos.webhooks.claimDue({ now, lockMs: LOCK_MS, limit: 100, ...everything });
      assert.equal(again.claimed.length, 7, 'released claims are due again; the claimed b1 one is not');
      assert.ok(first.claimed.every((c) => again.claimed.some((x) => x.delivery.id === c.delivery.id)));
    });

    test("a claim leaving out an endpoint finds the others' deliveries behind its whole backlog", {
      skip,
    }, async () => {
      const a = (await createAccount(repos.accounts, 'Busy')).id;
      const b = (await createAccount(repos.accounts, 'Quiet')).id;
      const busy = await endpoint(repos, a, 'busy');
      const quiet = await endpoint(repos, b, 'quiet');
      // A backlog far longer than a claim's window, all of it due before the other account's deliveries.
      await store.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 1_100; i++) await insertEvent(trx, a, 'message.received', { n: i }, Date.now());
      });
      await events(store, b, 2);
      const now = Date.now() + 1;
      const request = { now, lockMs: LOCK_MS, limit: 10, ...everything };
      const behind = await repos.webhooks.claimDue({ ...request, skipEndpoints: [busy] });
      assert.deepEqual(
        behind.claimed.map((c) => c.endpoint.id),
        [quiet, quiet],
      );
      assert.equal(behind.more, false, 'fewer than the limit were due');
      const byAccount = await repos.webhooks.claimDue({ ...request, skipAccounts: [b] });
      assert.equal(byAccount.claimed.length, 10);
      assert.ok(byAccount.claimed.every((c) => c.endpoint.id === busy));
      const nothing = await repos.webhooks.claimDue({ ...request, skipEndpoints: [busy, quiet] });
      assert.equal(nothing.claimed.length + nothing.heldBack, 0, 'nothing else is due');
    });
  });
}

describe('delivery claims of several PostgreSQL nodes', async () => {
  const skip = await storeTargets[1]!.skip();
  let schema: PostgresSchema;
  const nodes: Store[] = [];

  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    for (let i = 0; i < 3; i++) nodes.push(openStore(schema.url, { poolSize: 4 }));
    await migrateToLatest(nodes[0]!);
  });
  after(async () => {
    if (skip) return;
    for (const node of nodes) await node.close();
    await schema.drop();
  });

  test('nodes claiming at the same moment never take the same delivery', { skip }, async () => {
    const repos = nodes.map((node) => createRepositories(node));
    const account = (await createAccount(repos[0]!.accounts, 'Shared')).id;
    await endpoint(repos[0]!, account, 'shared');
    await events(nodes[0]!, account, 60);
    const now = Date.now() + 1;

    const taken = await Promise.all(
      repos.map(async (r) => {
        const mine: string[] = [];
        for (;;) {
          const { claimed, lost } = await r.webhooks.claimDue({
            now,
            lockMs: LOCK_MS,
            limit: 7,
            ...everything,
          });
          if (claimed.length === 0 && lost === 0) return mine; // nothing due is left unclaimed
          mine.push(...claimed.map((c) => c.delivery.id));
        }
      }),
    );
    const all = taken.flat();
    assert.equal(new Set(all).size, all.length, 'no delivery was claimed twice');
    assert.equal(all.length, 60, 'every delivery was claimed');
  });
});

/** A parameter, written as a literal for EXECUTE. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(',')}]::text[]`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

type Plan = { Plan: { 'Actual Rows': number } }[];

/**
 * The generic plan of a statement as the store prepares it (pg-named-statements.ts), run once in a
 * transaction that is rolled back (the mark writes).
 */
async function genericPlan(store: Store, compiled: CompiledQuery): Promise<Plan> {
  return store.db.connection().execute(async (conn) => {
    await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
    await sql.raw(`prepare probe as ${compiled.sql}`).execute(conn);
    const args = compiled.parameters.map(literal).join(', ');
    await sql`begin`.execute(conn);
    try {
      const { rows } = await sql
        .raw<{ 'QUERY PLAN': Plan }>(`explain (analyze, format json) execute probe(${args})`)
        .execute(conn);
      return rows[0]!['QUERY PLAN'];
    } finally {
      await sql`rollback`.execute(conn);
      await sql`deallocate probe`.execute(conn);
      await sql`reset plan_cache_mode`.execute(conn);
    }
  });
}

/**
 * A connection that runs the candidates as the store does, as a statement prepared once on it
 * (pg-named-statements.ts), and reports the plans they ran: auto_explain, loaded in the session, sends the
 * plans of statements, those inside functions included, to the client as notices. Plans are generic, as a
 * prepared statement's are after its first few runs.
 */
async function explainingConnection(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let notices: string[] = [];
  client.on('notice', (n) => notices.push(n.message ?? ''));
  for (const setting of [
    "load 'auto_explain'",
    'set auto_explain.log_min_duration = 0',
    'set auto_explain.log_nested_statements = on',
    'set auto_explain.log_analyze = on',
    'set auto_explain.log_format = json',
    'set auto_explain.log_level = notice',
    'set client_min_messages = notice',
    'set plan_cache_mode = force_generic_plan',
  ])
    await client.query(setting);
  return {
    /** How many candidates one run read, and its plans as JSON text. */
    async candidates(store: Store, now: number): Promise<{ read: number; plans: string }> {
      notices = [];
      const compiled = pgCandidatesQuery(store.db, now, [], [], 16).compile();
      const { rows } = await client.query({
        name: 'candidates',
        text: compiled.sql,
        values: [...compiled.parameters],
      });
      return { read: rows.length, plans: notices.filter((n) => n.includes('"Node Type"')).join('\n') };
    },
    close: () => client.end(),
  };
}

/**
 * An install with one account and one endpoint and 3,000 due deliveries (`dlv_due_1` first), with its
 * statistics taken as `statistics` says: of the whole table, or of the table while it was still empty and a
 * backlog then built up in one statement (a replay, a first busy minute).
 */
type Statistics = 'of the backlog' | 'of an empty table' | 'of a small table with few pending';

async function backlog(
  store: Store,
  statistics: Statistics,
  /** Runs once the statistics are taken, before the backlog builds up. */
  beforeBacklog: () => Promise<unknown> = async () => {},
): Promise<void> {
  await migrateToLatest(store);
  const repos = createRepositories(store);
  const account = (await createAccount(repos.accounts, 'One')).id;
  const endpointId = await endpoint(repos, account, 'one');
  await events(store, account, 1);
  const eventId = (await sql<{ id: string }>`select id from events limit 1`.execute(store.db)).rows[0]!.id;
  await sql`delete from deliveries`.execute(store.db);
  if (statistics === 'of an empty table') await sql`analyze deliveries`.execute(store.db);
  if (statistics === 'of a small table with few pending') {
    // A quiet install: 50 deliveries made, 3 of them still to go.
    await sql`insert into deliveries (id, account_id, event_id, endpoint_id, status, attempt_count,
        next_attempt_at, created_at, updated_at)
      select 'dlv_old_' || g, ${account}, ${eventId}, ${endpointId},
        case when g > 47 then 'pending' else 'delivered' end, 0, g - 100, 1, 1
      from generate_series(1, 50) as g`.execute(store.db);
    await sql`analyze deliveries`.execute(store.db);
  }
  await beforeBacklog();
  await sql`insert into deliveries (id, account_id, event_id, endpoint_id, status, attempt_count,
      next_attempt_at, created_at, updated_at)
    select 'dlv_due_' || g, ${account}, ${eventId}, ${endpointId}, 'pending', 0, g, 1, 1
    from generate_series(1, 3000) as g`.execute(store.db);
  if (statistics === 'of the backlog') await sql`analyze deliveries`.execute(store.db);
}

/**
 * Whatever the statistics, a claim reads the first due deliveries in order from the index of pending ones
 * and marks the picked by primary key. Plainly written, each statement had a statistics regime in which its
 * generic plan read the whole backlog for every claim (claim-statements.ts says which).
 */
describe('the plans of a PostgreSQL claim', async () => {
  const skip = await storeTargets[1]!.skip();

  for (const statistics of [
    'of the backlog',
    'of an empty table',
    'of a small table with few pending',
  ] as const) {
    test(`with the statistics ${statistics}`, { skip }, async () => {
      const schema = await createPostgresSchema();
      const store = openStore(schema.url, { poolSize: 1 });
      const connection = await explainingConnection(schema.url);
      try {
        const now = Date.now();
        // On a quiet install, the connection ran the candidates before the backlog came.
        await backlog(store, statistics, async () => {
          if (statistics === 'of a small table with few pending') await connection.candidates(store, now);
        });

        const candidates = await connection.candidates(store, now);
        assert.equal(candidates.read, 16, 'the limit is read');
        assert.doesNotMatch(candidates.plans, /"Node Type": ?"Sort"/, 'the index gives the order');
        assert.match(candidates.plans, /"Index Name": ?"deliveries_pending_due"/);

        const picked = ['dlv_due_2000', 'dlv_due_2001', 'dlv_due_2002'];
        const mark = await genericPlan(store, pgMarkQuery(store.db, picked, now, now + LOCK_MS).compile());
        assert.equal(mark[0]!.Plan['Actual Rows'], 3, 'the three picked are marked');
        assert.doesNotMatch(JSON.stringify(mark), /deliveries_pending_due/, 'the due index is not walked');
        assert.match(JSON.stringify(mark), /"Index Name":"deliveries_pkey"/, 'the picked are found by id');
      } finally {
        await connection.close();
        await store.close();
        await schema.drop();
      }
    });
  }
});
