/**
 * PostgreSQL for tests: each suite gets its own schema in the `test` database, so suites run side by side
 * and leave nothing behind. Set TEST_POSTGRES_URL to use another server. When the server is unreachable
 * the PostgreSQL suites fail under CI (they must really run there) and are skipped, saying so, elsewhere.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<boolean> | undefined;

export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
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

export interface PostgresSchema {
  url: string;
  drop(): Promise<void>;
}

export async function createPostgresSchema(): Promise<PostgresSchema> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
