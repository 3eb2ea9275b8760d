/**
 * The databases a store suite runs against: SQLite (a real file in a temporary directory) and PostgreSQL
 * (a fresh schema of the local server; skipped with a reason when it is not reachable outside CI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from './postgres.ts';

export interface Target {
  name: string;
  open(): Promise<{ store: Store; cleanup(): Promise<void> }>;
  skip(): Promise<string | false>;
}

export const storeTargets: Target[] = [
  {
    name: 'sqlite',
    skip: async () => false,
    async open() {
      const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-store-'));
      const store = openStore(`sqlite:${path.join(dir, 'store.db')}`);
      return { store, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    skip: postgresSkipReason,
    async open() {
      const schema: PostgresSchema = await createPostgresSchema();
      return { store: openStore(schema.url), cleanup: () => schema.drop() };
    },
  },
];

/**
 * The frame of a store suite, called inside its `describe`: before the tests, opens `target`'s database,
 * migrates it to the latest schema and hands it to `ready`, where the suite keeps it and builds what it
 * reads it through (its repositories, with the hooks it needs, rows every test shares); after them, closes
 * and removes it. Both do nothing when the suite is skipped. The suites under test/store each wrote these
 * two hooks out, alike but for what `ready` now does.
 */
export function openForSuite(
  target: Target,
  skip: string | false,
  ready: (store: Store) => void | Promise<void>,
): void {
  let store: Store | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  before(async () => {
    if (skip) return;
    ({ store, cleanup } = await target.open());
    await migrateToLatest(store);
    await ready(store);
  });
  after(async () => {
    if (skip) return;
    await store?.close();
    await cleanup?.();
  });
}
