/**
 * The key that encrypts network tokens at rest. Configured through SECRET_KEY; for the embedded SQLite
 * default, one is generated on first start and kept beside the database (owner-only, mode 0600), so
 * `npm start` needs no setup. Several nodes on PostgreSQL must share one configured key (config refuses
 * otherwise).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirSync, PRIVATE_FILE_MODE, tightenFileSync } from '../lib/private-files.ts';

export function loadOrCreateSecretKey(configured: Buffer | null, dataDir: string): Buffer {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) {
    tightenFileSync(file);
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte hex key`);
    return key;
  }
  makePrivateDirSync(dataDir);
  const key = randomBytes(32);
  // 'wx': never overwrite a key another process wrote in the meantime; read theirs instead.
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
  } catch {
    return loadOrCreateSecretKey(null, dataDir);
  }
  try {
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.writeFileSync(fd, key.toString('hex'));
  } finally {
    fs.closeSync(fd);
  }
  return key;
}
