/**
 * Writes bytes that arrive as a stream (an upload, a download) to a file as they come, so a file is never
 * held in memory whole, and stops at a size limit while writing. A file that passes the limit, or whose
 * source fails, is removed: no partial file is ever left behind.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files.ts';

export type BoundedWrite =
  | { ok: true; size: number; sha256: string }
  /** Past the limit: the file is gone. `size` counts the bytes read (all of them when drained). */
  | { ok: false; size: number };

/** The file system failed (a full disk, no permission): the gateway's trouble, not the sender's. */
export class StorageError extends Error {
  override name = 'StorageError';
}

export interface BoundedWriteOptions {
  /**
   * Past the limit, read the rest of the source and discard it instead of stopping. An HTTP request body
   * must be read to its end for the answer to reach the client; a download is better cut off.
   */
  drain?: boolean;
}

export async function writeBoundedFile(
  source: AsyncIterable<Uint8Array>,
  absolutePath: string,
  maxBytes: number,
  options: BoundedWriteOptions = {},
): Promise<BoundedWrite> {
  let file: fs.FileHandle;
  try {
    await makePrivateDir(path.dirname(absolutePath));
    // `wx`: a new file, never one that is already there; owner-only whatever the umask.
    file = await fs.open(absolutePath, 'wx', PRIVATE_FILE_MODE);
    await file.chmod(PRIVATE_FILE_MODE);
  } catch (error) {
    throw new StorageError(`the file could not be created: ${(error as Error).message}`);
  }
  const hash = createHash('sha256');
  let size = 0;
  let over = false;
  try {
    for await (const chunk of source) {
      size += chunk.length;
      if (over) continue;
      if (size > maxBytes) {
        over = true;
        if (!options.drain) break;
        continue;
      }
      hash.update(chunk);
      await file.write(chunk).catch((error: Error) => {
        throw new StorageError(`the file could not be written: ${error.message}`);
      });
    }
  } catch (error) {
    await file.close().catch(() => {});
    await fs.rm(absolutePath, { force: true });
    throw error;
  }
  await file.close();
  if (over) {
    await fs.rm(absolutePath, { force: true });
    return { ok: false, size };
  }
  return { ok: true, size, sha256: hash.digest('hex') };
}
