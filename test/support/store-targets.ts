/**
 * The databases a store suite runs against: SQLite (a real file in a temporary directory) and PostgreSQL
 * (a fresh schema of the local server; skipped with a reason when it is not reachable outside CI).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../src/store/connect.ts';
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
