/**
 * Owner-only files and folders for everything the gateway keeps on disk (docs/operations.md, Files on
 * disk): the database, its WAL, the secret key and stored media hold credentials and people's messages.
 * Modes are set with chmod after creating, so a permissive umask of the process cannot loosen them.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The folders from `first` (the outermost one mkdir created) down to `dir`. */
function createdChain(dir: string, first: string | undefined): string[] {
  if (first === undefined) return [];
  const chain: string[] = [];
  const top = path.resolve(first);
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    chain.push(current);
    if (current === top || current === path.dirname(current)) return chain;
  }
}

/**
 * Creates `dir` and its missing parents owner-only. A folder that already exists keeps its mode: it may
 * have been set up on purpose (a backup group); returns whether `dir` was created now.
 */
export function makePrivateDirSync(dir: string): boolean {
  const first = fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const created of createdChain(dir, first)) fs.chmodSync(created, PRIVATE_DIR_MODE);
  return first !== undefined;
}

export async function makePrivateDir(dir: string): Promise<void> {
  const first = await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const created of createdChain(dir, first)) await fsp.chmod(created, PRIVATE_DIR_MODE);
}

/** Writes a new file readable by the owner only (the mode is set before any byte is written). */
export async function writePrivateFile(file: string, bytes: Buffer): Promise<void> {
  const handle = await fsp.open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
}

/**
 * Makes an existing file of ours owner-only (one an earlier version created readable by others). A file
 * that is missing, or that belongs to another user, is left alone.
 */
export function tightenFileSync(file: string): void {
  try {
    const stat = fs.statSync(file);
    if ((stat.mode & 0o777) !== PRIVATE_FILE_MODE && stat.uid === process.getuid?.()) {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates `file` empty and owner-only if it does not exist yet, so whatever opens it next keeps that mode. */
export function createPrivateFileSync(file: string): void {
  try {
    const fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
    try {
      fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Creates DATA_DIR owner-only if it is missing. An existing one keeps its mode (it may be shared on
 * purpose); its mode is returned, in octal, when other users may enter or read it, so it can be reported.
 */
export function prepareDataDir(dir: string): string | undefined {
  if (makePrivateDirSync(dir)) return undefined;
  const mode = fs.statSync(dir).mode & 0o777;
  return mode & 0o077 ? mode.toString(8).padStart(4, '0') : undefined;
}
