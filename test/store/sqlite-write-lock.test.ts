/**
 * The SQLite store commits writes in groups (docs/adr/0007); an open group holds SQLite's write lock. A
 * transaction that only read, or was rolled back, must not leave its group open: another process (the CLI
 * beside a running gateway) would find the database locked until some later write happened to commit it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/connect.ts';

let dir: string;
let store: Store;
let otherProcess: DatabaseSync;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-lock-'));
  const file = path.join(dir, 'store.db');
  store = openStore(`sqlite:${file}`);
  await sql`create table notes (text text)`.execute(store.db);
  // No busy wait: a held lock fails at once instead of after a timeout.
  otherProcess = new DatabaseSync(file, { timeout: 0 });
});
after(async () => {
  otherProcess.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const otherWrites = (text: string) => otherProcess.prepare('insert into notes (text) values (?)').run(text);

test('a transaction that only read leaves the database free for another process', async () => {
  const rows = await store.db.transaction().execute((trx) => sql`select * from notes`.execute(trx));
  assert.deepEqual(rows.rows, []);
  assert.doesNotThrow(() => otherWrites('after a read'));
});

test('a rolled-back transaction leaves the database free for another process', async () => {
  await assert.rejects(
    store.db.transaction().execute(async (trx) => {
      await sql`insert into notes (text) values ('undone')`.execute(trx);
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  assert.doesNotThrow(() => otherWrites('after a rollback'));
  const texts = otherProcess.prepare('select text from notes').all();
  assert.deepEqual(
    texts.map((r) => r.text),
    ['after a read', 'after a rollback'],
  );
});

test('a committed transaction is there for the other process, which may write after it', async () => {
  await store.db.transaction().execute((trx) => sql`insert into notes (text) values ('kept')`.execute(trx));
  assert.doesNotThrow(() => otherWrites('after a commit'));
  const texts = otherProcess.prepare('select text from notes').all();
  assert.ok(texts.some((r) => r.text === 'kept'));
});
