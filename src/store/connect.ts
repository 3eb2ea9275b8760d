/**
 * Opens the store named by DATABASE_URL: `sqlite:<file>` (embedded default) or `postgres://...` (shared
 * state for several gateway nodes). The rest of the code sees one Kysely instance either way.
 */
import path from 'node:path';
import { Kysely } from 'kysely';
import pg from 'pg';
import { createPrivateFileSync, makePrivateDirSync, tightenFileSync } from '../lib/private-files.ts';
import { CurrentSchemaPostgresDialect } from './current-schema-dialect.ts';
import { nodeSqliteDialect, openSqlite } from './node-sqlite-dialect.ts';
import { prepareStatementsPerConnection } from './pg-named-statements.ts';
import type { Database } from './schema.ts';
import { offloadCheckpoints } from './sqlite-checkpoints.ts';
import { storeOnlyStorableText } from './storable-parameters.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// bigint columns hold epoch milliseconds, well inside Number's exact range: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function openStore(databaseUrl: string, options: { poolSize?: number } = {}): Store {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    const onDisk = file !== ':memory:';
    if (onDisk) {
      // Owner-only before SQLite first opens it: SQLite gives the WAL and shared-memory files it
      // creates the database file's mode.
      makePrivateDirSync(path.dirname(path.resolve(file)));
      createPrivateFileSync(file);
      tightenFileSync(file);
    }
    const sqlite = openSqlite(file);
    // Left by an earlier version, they keep the mode they were created with.
    if (onDisk) for (const suffix of ['-wal', '-shm']) tightenFileSync(file + suffix);
    const checkpoints = onDisk ? offloadCheckpoints(sqlite, file) : undefined;
    const db = new Kysely<Database>({ dialect: nodeSqliteDialect(sqlite, checkpoints?.afterCommit) });
    return {
      db,
      dialect: 'sqlite',
      async close() {
        // The worker's connection first: the last connection to close folds the WAL into the file.
        await checkpoints?.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 20 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  prepareStatementsPerConnection(pool);
  // Registered after the statement naming, so that it sees the parameters before that wrapper does.
  storeOnlyStorableText(pool);
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
