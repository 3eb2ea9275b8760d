/**
 * Statements run together on SQLite (GroupCommitDriver.runTogether, src/store/node-sqlite-dialect.ts), as
 * a status and its event are applied (src/store/sqlite-status-with-event.ts): all of them or none, inside
 * the batch of their turn without undoing the batch's other writes, answered once the batch committed,
 * and never in the middle of a Kysely transaction.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { type CompiledQuery, Kysely, sql } from 'kysely';
import { nodeSqliteDialect, openSqlite, sqliteDriverOf } from '../../src/store/node-sqlite-dialect.ts';

interface Db {
  notes: { id: string; body: string };
}

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-run-together-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function open(name: string) {
  const file = path.join(dir, name);
  const db = new Kysely<Db>({ dialect: nodeSqliteDialect(openSqlite(file)) });
  await sql`create table notes (id text primary key, body text not null)`.execute(db);
  const driver = sqliteDriverOf(db);
  assert.ok(driver, 'a node:sqlite store has the group-commit driver');
  const insert = (id: string, body: string): CompiledQuery =>
    db.insertInto('notes').values({ id, body }).compile();
  /** What another connection sees: only what is committed. */
  const committed = () => {
    const other = new DatabaseSync(file);
    try {
      return (other.prepare('select id from notes order by id').all() as { id: string }[]).map((r) => r.id);
    } finally {
      other.close();
    }
  };
  return { db, driver, insert, committed };
}

test('the statements run in order and are answered once committed', async () => {
  const { db, driver, insert, committed } = await open('order.db');
  const result = await driver.runTogether((s) => {
    const first = s.changes(insert('a', 'one'));
    const second = s.changes(insert('b', 'two'));
    const rows = s.rows<{ id: string }>(db.selectFrom('notes').select('id').compile());
    return { first, second, ids: rows.map((r) => r.id) };
  });
  assert.deepEqual(result, { first: 1, second: 1, ids: ['a', 'b'] });
  assert.deepEqual(committed(), ['a', 'b'], 'committed by the time it answered');
  await db.destroy();
});

test("one failing statement undoes the others of its run, not the batch's other writes", async () => {
  const { db, driver, insert, committed } = await open('atomic.db');
  await db.insertInto('notes').values({ id: 'taken', body: 'x' }).execute();
  // Asked in the same turn: the plain insert and the run share one batch.
  const beside = db.insertInto('notes').values({ id: 'beside', body: 'kept' }).execute();
  const failing = driver.runTogether((s) => {
    s.changes(insert('undone', 'first of the run'));
    s.changes(insert('taken', 'breaks the primary key'));
  });
  await assert.rejects(failing, /UNIQUE constraint failed/);
  await beside;
  assert.deepEqual(committed(), ['beside', 'taken']);
  await db.destroy();
});

test('a run waits for the Kysely transaction under way, and goes after it', async () => {
  const { db, driver, insert, committed } = await open('waits.db');
  const order: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const transaction = db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ id: 'tx', body: 'in the transaction' }).execute();
    await held;
    order.push('transaction');
  });
  // Let the transaction begin before the run is asked.
  await new Promise((resolve) => setImmediate(resolve));
  const run = driver.runTogether((s) => {
    order.push('run');
    return s.changes(insert('run', 'after it'));
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(order, [], 'the run has not started while the transaction holds the connection');
  release();
  await Promise.all([transaction, run]);
  assert.deepEqual(order, ['transaction', 'run']);
  assert.deepEqual(committed(), ['run', 'tx']);
  await db.destroy();
});
