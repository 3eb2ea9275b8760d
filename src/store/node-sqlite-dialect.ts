/**
 * Kysely's SqliteDialect speaks to a better-sqlite3-shaped database. Node's built-in `node:sqlite` is close
 * but not the same; this adapter bridges the three differences, so the project needs no native addon:
 * - statements have no `reader` flag: a statement that yields columns is a reader;
 * - parameters are spread, not passed as one array;
 * - booleans cannot be bound: they are stored as 0/1, as SQLite itself does.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect } from 'kysely';

type Bindable = SQLInputValue;

function bindable(values: readonly unknown[]): Bindable[] {
  return values.map((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === undefined) return null;
    if (v instanceof Date) return v.toISOString();
    return v as Bindable;
  });
}

function adaptStatement(stmt: StatementSync) {
  return {
    reader: stmt.columns().length > 0,
    all: (params: readonly unknown[]) => stmt.all(...bindable(params)),
    run: (params: readonly unknown[]) => {
      const r = stmt.run(...bindable(params));
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    },
    iterate: (params: readonly unknown[]) => stmt.iterate(...bindable(params)),
  };
}

export function openSqlite(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: 5000 });
  // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode
  // (only an OS crash can lose the last commits), which is the usual trade for an embedded server store.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  return db;
}

export function nodeSqliteDialect(db: DatabaseSync): SqliteDialect {
  // Statements are prepared per query by Kysely; caching them by SQL text saves most of the prepare cost
  // on the hot send path, where the same dozen statements repeat.
  const cache = new Map<string, ReturnType<typeof adaptStatement>>();
  return new SqliteDialect({
    database: {
      close: () => db.close(),
      prepare: (sql: string) => {
        let stmt = cache.get(sql);
        if (!stmt) {
          stmt = adaptStatement(db.prepare(sql));
          if (cache.size > 500) cache.clear();
          cache.set(sql, stmt);
        }
        return stmt;
      },
    } as never,
  });
}
