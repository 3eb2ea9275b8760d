/**
 * PostgreSQL for tests: each suite gets its own schema in the `test` database, so suites run side by side
 * and leave nothing behind. Set TEST_POSTGRES_URL to use another server. When the server is unreachable
 * the PostgreSQL suites fail under CI (they must really run there) and are skipped, saying so, elsewhere.
 *
 * Under `npm test` the schemas are dropped when their shard ends (test/run.ts), not when each suite ends,
 * so that no suite waits for a cascade of DDL. The store's introspection reads only its own schema
 * (src/store/current-schema-dialect.ts), so the schemas piling up meanwhile slow nothing down.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;

export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    // Generous: the suites of a shard share one process, whose event loop may be busy for seconds with
    // another suite's work when this is first asked; a short timeout then skips a reachable server.
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 20_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/** Why PostgreSQL suites are skipped, or false to run them (and fail loudly under CI). */
export async function postgresSkipReason(): Promise<string | false> {
  if (await postgresReachable()) return false;
  if (process.env.CI)
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_URL}; CI must run the PostgreSQL suites`);
  return `PostgreSQL is not reachable at ${POSTGRES_URL}`;
}

/** Set by test/run.ts for the test processes: the run whose schemas it drops at its end. */
export const RUN_ENV = 'SWITCHBOARD_TEST_RUN';
const run = process.env[RUN_ENV];

const runPrefix = (id: string) => `t_${id}_`;

/** Drops every schema of the run `id` (named by createPostgresSchema); nothing to do when unreachable. */
export async function dropRunSchemas(id: string): Promise<void> {
  if (!(await postgresReachable())) return;
  const c = new pg.Client({ connectionString: POSTGRES_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string }>(
      'select nspname as name from pg_namespace where starts_with(nspname, $1)',
      [runPrefix(id)],
    );
    for (const { name } of rows) await c.query(`drop schema if exists ${name} cascade`);
  } finally {
    await c.end();
  }
}

export interface PostgresSchema {
  url: string;
  drop(): Promise<void>;
}

export async function createPostgresSchema(): Promise<PostgresSchema> {
  const schema = `${run ? runPrefix(run) : 't_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      if (run) return; // dropped with the rest of the run (see above)
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
