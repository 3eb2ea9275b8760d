/**
 * Kysely over Node's built-in `node:sqlite` (no native addon), with group commit.
 *
 * Kysely's own SqliteDriver speaks to a better-sqlite3-shaped database and runs every statement in its own
 * autocommit transaction, behind a mutex. Each autocommit write appends to the WAL on its own, which made
 * commits the largest single cost of a send. This driver instead gathers the writes of all concurrent
 * requests into one transaction per event-loop turn (group commit, docs/adr/0007):
 * - the first write of a turn opens the batch (`BEGIN IMMEDIATE`); every statement of the turn runs in it;
 * - the batch commits once, at the end of the turn (src/lib/turn-end.ts), after the turn's callbacks have
 *   issued their statements;
 * - a write, and a read that ran after a write of the open batch (it may have seen that write), resolves
 *   only after the batch committed: whoever awaited it learns of its outcome only once it is durable, so a
 *   200 still means stored; a failed commit rejects all of them;
 * - a read while nothing of the batch is written yet sees only committed data and resolves at once;
 * - a Kysely transaction is a SAVEPOINT inside the batch, exclusive while it runs (its statements resolve at
 *   once, other statements wait for its end); its commit resolves after the batch committed, its rollback
 *   undoes only its own work.
 * Statements are prepared once per SQL text and reused.
 * node:sqlite differs from better-sqlite3 in three ways bridged here: statements have no `reader` flag (a
 * statement that yields columns is a reader); parameters are spread, not passed as one array; booleans
 * cannot be bound (stored as 0/1, as SQLite itself does).
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteDialect,
  type TransactionSettings,
} from 'kysely';
import { atTurnEnd } from '../lib/turn-end.ts';
import { storableValue } from './storable-parameters.ts';

type Bindable = SQLInputValue;

function bindable(values: readonly unknown[]): Bindable[] {
  return values.map((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === undefined) return null;
    if (v instanceof Date) return v.toISOString();
    // Stored as on PostgreSQL, which cannot hold NUL in text (storable-parameters.ts).
    if (typeof v === 'string') return storableValue(v) as string;
    return v as Bindable;
  });
}

interface Prepared {
  stmt: StatementSync;
  /** Yields rows (a select, or a write with RETURNING). */
  reader: boolean;
  /** Changes nothing: a plain select. Anything else counts as a write. */
  readOnly: boolean;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** Statements run synchronously, one after another (GroupCommitDriver.runTogether). */
export interface SyncStatements {
  rows<R>(query: CompiledQuery<R>): R[];
  /** Rows changed by a write. */
  changes(query: CompiledQuery): number;
}

export function openSqlite(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: 5000 });
  // WAL lets readers run beside the writer; NORMAL sync is durable across process crashes in WAL mode
  // (only an OS crash can lose the last commits), which is the usual trade for an embedded server store.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  return db;
}

/** One SQLite connection shared by every query, with the writes of each event-loop turn committed together. */
export class GroupCommitDriver implements Driver {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, Prepared>();
  /** A batch transaction is open on the connection. */
  #open = false;
  /** The open batch wrote something (or ran a statement whose effect is unknown). */
  #dirty = false;
  #waiters: Waiter[] = [];
  /**
   * Commits the open batch at the end of this turn of the event loop, once however many statements asked.
   * A Kysely transaction still running then keeps the batch open; its end asks again.
   */
  readonly #commitAfterTurn = atTurnEnd(() => {
    if (!this.#owner) this.#commit();
  });
  /** The Kysely transaction running now, if any: it has the connection to itself until it ends. */
  #owner: TransactionConnection | null = null;
  #queue: (() => void)[] = [];
  #savepoints = 0;
  #closed = false;

  /** Told after each commit (sqlite-checkpoints.ts watches the WAL's size). */
  readonly #onCommit: () => void;

  constructor(db: DatabaseSync, onCommit: () => void = () => {}) {
    this.#db = db;
    this.#onCommit = onCommit;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new TransactionConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const tx = connection as TransactionConnection;
    while (this.#owner) await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#owner = tx;
    try {
      this.#ensureBatch();
      tx.savepoint = `sb_tx_${++this.#savepoints}`;
      this.#db.exec(`SAVEPOINT ${tx.savepoint}`);
    } catch (error) {
      this.#endOwnership(tx);
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const tx = connection as TransactionConnection;
    try {
      if (!this.#db.isTransaction) throw new Error('the transaction was rolled back by the database');
      this.#db.exec(`RELEASE ${tx.savepoint}`);
    } catch (error) {
      this.#endOwnership(tx);
      throw error;
    }
    const wrote = tx.wrote;
    this.#endOwnership(tx);
    if (wrote) await this.#afterCommit();
    else this.#endIdleBatch();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const tx = connection as TransactionConnection;
    try {
      // An error that aborted the whole batch already rolled this transaction back with it.
      if (this.#db.isTransaction && tx.savepoint) {
        this.#db.exec(`ROLLBACK TO ${tx.savepoint}`);
        this.#db.exec(`RELEASE ${tx.savepoint}`);
      }
    } finally {
      this.#endOwnership(tx);
      this.#endIdleBatch();
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#commit();
    this.#db.close();
  }

  /** Runs one statement for `connection`, returning its result once it may be acted on. */
  async execute<R>(connection: TransactionConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#owner === connection) {
      const result = this.#run<R>(query);
      if (!result.readOnly) connection.wrote = true;
      return result.result;
    }
    while (this.#owner) await new Promise<void>((resolve) => this.#queue.push(resolve));
    const { result, readOnly } = this.#run<R>(query);
    if (readOnly && !this.#dirty) return result;
    await this.#afterCommit();
    return result;
  }

  /**
   * Runs `work`'s statements at once, with no turn of the event loop between them, in a savepoint of the
   * open batch: all of them or, if one fails, none. Resolves with what `work` returned once the batch
   * committed, as a Kysely transaction's commit does; waits first for a Kysely transaction under way.
   * For the hottest writes (./sqlite-status-with-event.ts), where a Kysely transaction's promises cost
   * more than SQLite's own work.
   */
  async runTogether<T>(work: (statements: SyncStatements) => T): Promise<T> {
    while (this.#owner) await new Promise<void>((resolve) => this.#queue.push(resolve));
    this.#ensureBatch();
    this.#db.exec('SAVEPOINT sb_together');
    let result: T;
    try {
      result = work({
        rows: <R>(query: CompiledQuery<R>) => this.#run<R>(query).result.rows,
        changes: (query: CompiledQuery) => Number(this.#run(query).result.numAffectedRows ?? 0),
      });
      this.#db.exec('RELEASE sb_together');
    } catch (error) {
      if (this.#db.isTransaction) {
        this.#db.exec('ROLLBACK TO sb_together');
        this.#db.exec('RELEASE sb_together');
      }
      this.#endIdleBatch();
      throw error;
    }
    await this.#afterCommit();
    return result;
  }

  *stream<R>(query: CompiledQuery): IterableIterator<QueryResult<R>> {
    for (const row of this.#prepare(query.sql).stmt.iterate(...bindable(query.parameters))) {
      yield { rows: [row as R] };
    }
  }

  #prepare(sql: string): Prepared {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      const stmt = this.#db.prepare(sql);
      prepared = { stmt, reader: stmt.columns().length > 0, readOnly: /^\s*select\b/i.test(sql) };
      if (this.#statements.size > 500) this.#statements.clear();
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  #run<R>(query: CompiledQuery): { result: QueryResult<R>; readOnly: boolean } {
    const prepared = this.#prepare(query.sql);
    if (!prepared.readOnly) {
      this.#ensureBatch();
      this.#dirty = true;
    }
    const params = bindable(query.parameters);
    try {
      if (prepared.reader) {
        return { result: { rows: prepared.stmt.all(...params) as R[] }, readOnly: prepared.readOnly };
      }
      const { changes, lastInsertRowid } = prepared.stmt.run(...params);
      return {
        result: { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] },
        readOnly: prepared.readOnly,
      };
    } catch (error) {
      // Most errors undo only their own statement; some (I/O, full disk) abort the whole transaction,
      // and with it the writes of every request in the batch: those must not be reported as stored.
      if (this.#open && !this.#db.isTransaction) this.#abandon(error);
      throw error;
    }
  }

  #ensureBatch(): void {
    if (this.#open) return;
    if (this.#closed) throw new Error('the database is closed');
    this.#db.exec('BEGIN IMMEDIATE');
    this.#open = true;
    this.#dirty = false;
  }

  /** Resolves once the open batch is committed (rejects if it is not). */
  #afterCommit(): Promise<void> {
    if (!this.#open) return Promise.resolve();
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.#commitAfterTurn();
    return done;
  }

  #commit(): void {
    if (!this.#open) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#open = false;
    this.#dirty = false;
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      for (const w of waiters) w.reject(error);
      return;
    }
    for (const w of waiters) w.resolve();
    this.#onCommit();
  }

  /**
   * Ends a batch that no one waits on: one opened by a transaction that only read, or whose writes were
   * rolled back. An open batch holds SQLite's write lock, which other processes (the CLI beside a running
   * gateway) would wait on until some later write happened to commit it.
   */
  #endIdleBatch(): void {
    if (this.#open && !this.#owner && this.#waiters.length === 0) this.#commit();
  }

  #abandon(error: unknown): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#open = false;
    this.#dirty = false;
    for (const w of waiters) w.reject(error);
  }

  #endOwnership(tx: TransactionConnection): void {
    if (this.#owner !== tx) return;
    this.#owner = null;
    const next = this.#queue;
    this.#queue = [];
    for (const resume of next) resume();
    if (this.#open && this.#waiters.length > 0) this.#commitAfterTurn();
  }
}

/** What Kysely holds for a query or a transaction; the driver keeps all state. */
class TransactionConnection implements DatabaseConnection {
  readonly #driver: GroupCommitDriver;
  savepoint = '';
  wrote = false;

  constructor(driver: GroupCommitDriver) {
    this.#driver = driver;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#driver.execute<R>(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    yield* this.#driver.stream<R>(query);
  }
}

/**
 * Kysely's SQLite adapter, holding the driver, so that the store can reach runTogether from a Kysely
 * instance (`sqliteDriverOf`).
 */
class NodeSqliteAdapter extends SqliteAdapter {
  readonly driver: GroupCommitDriver;

  constructor(driver: GroupCommitDriver) {
    super();
    this.driver = driver;
  }
}

/** The group-commit driver under `db`, or undefined when `db` is not on node:sqlite. */
export function sqliteDriverOf<DB>(db: Kysely<DB>): GroupCommitDriver | undefined {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof NodeSqliteAdapter ? adapter.driver : undefined;
}

class NodeSqliteDialect extends SqliteDialect {
  readonly #db: DatabaseSync;
  readonly #onCommit: (() => void) | undefined;
  #driver: GroupCommitDriver | undefined;

  constructor(db: DatabaseSync, onCommit?: () => void) {
    // Kysely's own driver would open this; createDriver below replaces that driver, so it is never called.
    super({
      database: () => Promise.reject(new Error('the node:sqlite dialect brings its own driver')),
    });
    this.#db = db;
    this.#onCommit = onCommit;
  }

  override createDriver(): Driver {
    return this.#ownDriver();
  }

  override createAdapter(): SqliteAdapter {
    return new NodeSqliteAdapter(this.#ownDriver());
  }

  /** One driver per dialect: Kysely asks for the driver and the adapter once each, at its construction. */
  #ownDriver(): GroupCommitDriver {
    this.#driver ??= new GroupCommitDriver(this.#db, this.#onCommit);
    return this.#driver;
  }
}

export function nodeSqliteDialect(db: DatabaseSync, onCommit?: () => void): SqliteDialect {
  return new NodeSqliteDialect(db, onCommit);
}
