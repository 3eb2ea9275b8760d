/**
 * Holds every worker thread of this process's libuv pool, so work that runs there (password hashing with
 * scrypt) cannot finish until released. Tests use it to stand for a burst of requests that all arrive while
 * earlier hashes are still running, without relying on how fast the machine is.
 *
 * Each worker is held by opening a named pipe for reading: the open blocks in the pool until a writer
 * appears. Releasing opens each pipe read-write (which never blocks on Linux), which lets the blocked opens
 * return.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export async function holdThreadPool(): Promise<() => Promise<void>> {
  const size = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'switchboard-pool-'));
  const pipes = Array.from({ length: size }, (_, i) => path.join(dir, `hold-${i}`));
  for (const pipe of pipes) execFileSync('mkfifo', [pipe]);
  const held = pipes.map((pipe) => fs.promises.open(pipe, 'r'));
  return async () => {
    const writers = pipes.map((pipe) => fs.openSync(pipe, fs.constants.O_RDWR));
    for (const handle of await Promise.all(held)) await handle.close();
    for (const fd of writers) fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
