/**
 * The spool of uploads on their way to the network (src/store/outbound-media-repo.ts): a file within its
 * limit is written whole, one past it leaves nothing, and what an upload killed mid-way left behind is
 * removed once it is older than any upload lasts, while a fresh one is kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { outboundMediaRepo } from '../../src/store/outbound-media-repo.ts';

let dir: string;
let store: Store;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'switchboard-spool-'));
  store = openStore(`sqlite:${path.join(dir, 'store.db')}`);
  await migrateToLatest(store);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function* chunks(...parts: string[]) {
  for (const part of parts) yield Buffer.from(part);
}

test('a file within its limit is spooled whole and discarded after; one past it leaves nothing', async () => {
  const repo = outboundMediaRepo(store.db, dir);
  const spooled = await repo.spool(chunks('hello ', 'world'), 11);
  assert.ok(spooled.ok);
  assert.equal(readFileSync(spooled.path, 'utf8'), 'hello world');
  await repo.discard(spooled.path);
  const over = await repo.spool(chunks('hello ', 'world!'), 11);
  assert.deepEqual(over, { ok: false, size: 12 });
  assert.deepEqual(readdirSync(path.join(dir, 'uploads')), []);
});

test('files left by an upload killed mid-way are removed once stale; a fresh one stays', async () => {
  const repo = outboundMediaRepo(store.db, dir);
  const uploads = path.join(dir, 'uploads');
  writeFileSync(path.join(uploads, 'left-behind'), 'x');
  writeFileSync(path.join(uploads, 'in-flight'), 'y');
  const hourAgo = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(path.join(uploads, 'left-behind'), hourAgo, hourAgo);
  assert.equal(await repo.discardStale(Date.now() - 3_600_000), 1);
  assert.deepEqual(readdirSync(uploads), ['in-flight']);
});
