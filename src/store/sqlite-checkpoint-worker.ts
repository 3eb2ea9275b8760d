/**
 * What the worker thread of src/store/sqlite-checkpoints.ts runs: a connection of its own to the database
 * file, and a PASSIVE checkpoint every `intervalMs` until the thread is told to stop. A passive checkpoint
 * copies the committed part of the WAL into the database file without taking the write lock, so the
 * gateway's connection goes on committing beside it; it gives up at once (no busy wait) when another
 * checkpoint is running, and the next tick tries again.
 *
 * The worker runs this function's source as a CommonJS script (`new Worker(source, { eval: true })`), not
 * this file: a worker that loads a TypeScript file loads the type stripper with it, about 20 MB more in
 * every gateway. So the function uses nothing from outside its body but `require` and its worker data.
 */
export function runCheckpoints(): void {
  const { DatabaseSync } = require('node:sqlite') as typeof import('node:sqlite');
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { file, intervalMs } = workerData as { file: string; intervalMs: number };
  const db = new DatabaseSync(file, { timeout: 0 });
  // A checkpoint copies from the WAL to the file; it needs next to no page cache of its own.
  db.exec('PRAGMA cache_size = -256');
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  const timer = setInterval(() => checkpoint.get(), intervalMs);
  parentPort?.once('message', () => {
    clearInterval(timer);
    db.close();
    parentPort?.close();
  });
}

/** The script a worker is started with. */
export const CHECKPOINT_WORKER_SOURCE = `(${runCheckpoints.toString()})()`;
