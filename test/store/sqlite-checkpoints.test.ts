/**
 * SQLite's checkpoints run in a worker thread once a store writes enough (src/store/sqlite-checkpoints.ts,
 * docs/adr/0039): the gateway's own connection then checkpoints only as a backstop, the worker copies the
 * WAL into the database file beside it, and closing leaves a whole database and no WAL behind, also in a
 * process that has nothing else left to run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { openStore } from '../../src/store/connect.ts';
import { openSqlite } from '../../src/store/node-sqlite-dialect.ts';
import { offloadCheckpoints } from '../../src/store/sqlite-checkpoints.ts';
import { eventually } from '../support/eventually.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-checkpoints-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = 'x'.repeat(4000);
const autocheckpoint = (db: DatabaseSync) =>
  (db.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

test('past its threshold the worker starts, and copies the WAL into the file while the connection writes on', async () => {
  const file = path.join(dir, 'offloaded.db');
  const db = openSqlite(file);
  db.exec('create table pages (body text)');
  const checkpoints = offloadCheckpoints(db, file, { startAtWalBytes: 256 * 1024, intervalMs: 10 });
  const insert = db.prepare('insert into pages (body) values (?)');
  let rows = 0;
  const write = () => {
    insert.run(PAGE);
    rows++;
    checkpoints.afterCommit();
  };
  while (!checkpoints.offloaded && rows < 1000) write();
  assert.ok(checkpoints.offloaded, 'the worker started');
  assert.ok(statSync(`${file}-wal`).size >= 256 * 1024, 'not before the WAL reached the threshold');
  assert.equal(autocheckpoint(db), 4096, "the connection's own checkpoint is the backstop only");

  // 200 pages more, far below the backstop: only the worker can bring them into the database file.
  const before = statSync(file).size;
  for (let i = 0; i < 200; i++) write();
  await eventually(() => statSync(file).size >= before + 200 * 4096);

  await checkpoints.stop();
  assert.equal(checkpoints.offloaded, false);
  db.close();
  assert.equal(existsSync(`${file}-wal`), false, 'the last connection to close folded the WAL in');
  const reopened = new DatabaseSync(file, { readOnly: true });
  assert.equal(reopened.prepare('select count(*) as n from pages').get()?.n, rows);
  reopened.close();
});

test('a worker that cannot open the database gives the checkpoints back to the connection', async () => {
  const file = path.join(dir, 'fallback.db');
  const db = openSqlite(file);
  db.exec('create table pages (body text)');
  // The worker is pointed at a file it cannot open, and starts at the first check.
  const checkpoints = offloadCheckpoints(db, path.join(dir, 'missing', 'x.db'), { startAtWalBytes: 0 });
  for (let i = 0; i < 64; i++) {
    db.prepare('insert into pages (body) values (?)').run('a');
    checkpoints.afterCommit();
  }
  assert.ok(checkpoints.offloaded, 'the worker was started');
  await eventually(() => !checkpoints.offloaded && autocheckpoint(db) === 1000);
  await checkpoints.stop();
  db.close();
});

test('a store that writes a few MB hands its checkpoints to the worker; one that writes little does not', async () => {
  const store = openStore(`sqlite:${path.join(dir, 'store.db')}`);
  const setting = async () =>
    (await sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(store.db)).rows[0]
      ?.wal_autocheckpoint;
  await sql`create table pages (body text)`.execute(store.db);
  for (let i = 0; i < 100; i++) await sql`insert into pages (body) values (${PAGE})`.execute(store.db);
  assert.equal(await setting(), 1000, 'a store that wrote 400 KB checkpoints by itself');
  // Each insert awaited is a commit of its own: about 4 MB in 1,000 commits.
  for (let i = 0; i < 1000; i++) await sql`insert into pages (body) values (${PAGE})`.execute(store.db);
  assert.equal(await setting(), 4096);
  await store.close();
  assert.equal(existsSync(path.join(dir, 'store.db-wal')), false);
});

test('closing a store whose worker runs finishes in a process with nothing else left to run', () => {
  // A script or a command that wrote a few MB: the worker does not keep a process alive, and the close
  // that waits for it to exit must not let the process end first, before what follows the close runs.
  const file = path.join(dir, 'alone.db');
  const connect = pathToFileURL(path.join(import.meta.dirname, '../../src/store/connect.ts')).href;
  const script = path.join(dir, 'alone.mjs');
  writeFileSync(
    script,
    `import { sql } from '${import.meta.resolve('kysely')}';
    import { openStore } from '${connect}';
    const store = openStore(${JSON.stringify(`sqlite:${file}`)});
    await sql\`create table pages (body text)\`.execute(store.db);
    const page = 'x'.repeat(4000);
    for (let i = 0; i < 1100; i++) await sql\`insert into pages (body) values (\${page})\`.execute(store.db);
    await store.close();
    console.log('closed');`,
  );
  const child = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), 'closed');
  assert.equal(existsSync(`${file}-wal`), false, 'the connection was closed, the WAL folded in');
});
