/**
 * Files on disk are the owner's only (docs/operations.md, Files on disk): DATA_DIR and the folders under
 * it 0700, the database, its WAL and shared-memory files, the secret key and stored media 0600. The test
 * process runs with the most permissive umask (0), so nothing here comes from a careful umask. A data
 * folder left by an earlier version (files readable by others) has its files tightened at start.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  eventually,
  joinSandbox,
  startGateway,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712300999';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** Every folder and file under `dir`, with its mode. */
function modesUnder(dir: string): { dirs: Record<string, string>; files: Record<string, string> } {
  const dirs: Record<string, string> = {};
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    (entry.isDirectory() ? dirs : files)[path.relative(dir, full)] = modeOf(full);
  }
  return { dirs, files };
}

describe('file permissions under umask 0', () => {
  let previousUmask: number;
  let root: string;
  before(() => {
    previousUmask = process.umask(0);
    root = fs.mkdtempSync(path.join(tmpdir(), 'switchboard-perm-'));
  });
  after(() => {
    process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  describe('a new DATA_DIR', () => {
    let t: TestGateway;
    let dataDir: string;
    before(async () => {
      dataDir = path.join(root, 'fresh', 'data');
      t = await startGateway({ env: { DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    });
    after(async () => {
      await t?.close();
    });

    test('DATA_DIR is 0700; the database, its WAL and shared memory, and the secret key are 0600', () => {
      assert.equal(modeOf(dataDir), '700');
      assert.equal(modeOf(path.dirname(dataDir)), '700', 'a parent created for it too');
      for (const file of ['switchboard.db', 'switchboard.db-wal', 'switchboard.db-shm', 'secret.key']) {
        assert.equal(modeOf(path.join(dataDir, file)), '600', file);
      }
    });

    test('stored template media and inbound media: folders 0700, files 0600', async () => {
      const account = await createAccount(t);
      const form = new FormData();
      form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'doc.pdf');
      const upload = await fetch(`${t.url}/api/v1/template/upload/file`, {
        method: 'POST',
        headers: { apiKey: account.apiKey },
        body: form,
      });
      assert.equal(upload.status, 200);
      await joinSandbox(t, account, USER);
      const sent = await call(t.url, 'POST', `/simulator/users/${USER}/messages`, {
        body: {
          to: DEFAULT_SANDBOX_NUMBER,
          media: { type: 'image', mimeType: 'image/png', dataBase64: PNG.toString('base64') },
        },
      });
      assert.equal(sent.status, 202);
      const media = path.join(dataDir, 'media');
      await eventually(() => fs.existsSync(media) && Object.keys(modesUnder(media).files).length > 0);

      const { dirs, files } = modesUnder(dataDir);
      assert.ok(
        Object.keys(files).some((f) => f.startsWith('template-media/')),
        JSON.stringify(files),
      );
      assert.ok(
        Object.keys(files).some((f) => f.startsWith('media/')),
        JSON.stringify(files),
      );
      for (const [dir, mode] of Object.entries(dirs)) assert.equal(mode, '700', dir);
      for (const [file, mode] of Object.entries(files)) assert.equal(mode, '600', file);
    });
  });

  describe('a DATA_DIR left by an earlier version', () => {
    let t: TestGateway;
    let dataDir: string;
    const lines: string[] = [];
    before(async () => {
      dataDir = path.join(root, 'earlier');
      fs.mkdirSync(dataDir, { mode: 0o755 });
      // What an earlier version left: a database and a key readable by every local user.
      const earlier = await startGateway({ env: { DATA_DIR: dataDir } });
      await earlier.close();
      fs.rmSync(earlier.dataDir, { recursive: true, force: true });
      for (const file of ['switchboard.db', 'secret.key']) fs.chmodSync(path.join(dataDir, file), 0o644);
      fs.writeFileSync(path.join(dataDir, 'switchboard.db-wal'), '', { mode: 0o644 });
      t = await startGateway({
        env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        logStream: { write: (line) => void lines.push(line) },
      });
    });
    after(async () => {
      await t?.close();
    });

    test('its database, WAL and secret key are made 0600 at start', () => {
      for (const file of ['switchboard.db', 'switchboard.db-wal', 'switchboard.db-shm', 'secret.key']) {
        assert.equal(modeOf(path.join(dataDir, file)), '600', file);
      }
    });

    test('the folder keeps its mode, with a warning that says so', () => {
      assert.equal(modeOf(dataDir), '755');
      const warning = lines.map((l) => JSON.parse(l)).find((e) => e.dataDir === dataDir);
      assert.equal(warning?.mode, '0755');
      assert.match(warning?.msg ?? '', /DATA_DIR can be entered by other users/);
    });

    test('the key kept is the one in use (read, not replaced)', () => {
      const key = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8');
      assert.equal(t.gateway.secretKey.toString('hex'), key.trim());
    });
  });
});
