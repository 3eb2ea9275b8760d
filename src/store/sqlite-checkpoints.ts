/**
 * SQLite's checkpoints moved off the event loop, into a worker thread (docs/adr/0039).
 *
 * In WAL mode a commit appends its pages to the `-wal` file; by default the connection whose commit takes
 * the WAL past 1,000 pages then copies the WAL back into the database file, with two fsyncs, before the
 * commit returns. The gateway has one connection (node-sqlite-dialect.ts), so that copy ran on the event
 * loop, in the middle of whatever requests were waiting: measured under the send benchmark, it was half
 * of what a commit cost (344 µs a commit with it, 181 µs without).
 *
 * Once the WAL has grown to `startAtWalBytes` (a store that wrote that much is under load, and a test or a
 * quiet gateway never starts the thread), a worker opens a second connection and runs PASSIVE checkpoints
 * every `intervalMs` (sqlite-checkpoint-worker.ts). The gateway's connection keeps a checkpoint of its own
 * only as a backstop, at BACKSTOP_PAGES: under a steady stream of commits a passive checkpoint never
 * catches the very last one, and SQLite starts the WAL over only when all of it has been copied; the
 * backstop copies what little is left and lets the WAL start over, so it stays bounded.
 *
 * Durability does not change: a commit is in the WAL when it returns, as before (a checkpoint only moves
 * pages already durable there). If the worker fails, the connection checkpoints by itself again.
 */
import { once } from 'node:events';
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { CHECKPOINT_WORKER_SOURCE } from './sqlite-checkpoint-worker.ts';

/** SQLite's own default: the connection checkpoints once the WAL holds this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The connection's own checkpoint while the worker runs (about 16 MB of 4 KiB pages). */
const BACKSTOP_PAGES = 4096;
/** How often the WAL's size is looked at, in commits, until the worker starts. */
const CHECK_EVERY_COMMITS = 64;

export interface CheckpointOptions {
  /**
   * The WAL size that starts the worker. The default, 3 MiB, is three quarters of the 1,000 pages at
   * which the connection checkpoints by itself: a WAL file never shrinks, so one that reached it is about
   * to be checkpointed on the event loop, or has been.
   */
  startAtWalBytes?: number;
  intervalMs?: number;
}

export interface Checkpoints {
  /** Called after each commit of the connection: starts the worker once the WAL is big enough. */
  afterCommit(): void;
  /** Whether the worker runs (for tests). */
  readonly offloaded: boolean;
  /** Stops the worker, its connection closed; before the connection itself is closed. */
  stop(): Promise<void>;
}

export function offloadCheckpoints(
  db: DatabaseSync,
  file: string,
  options: CheckpointOptions = {},
): Checkpoints {
  const startAt = options.startAtWalBytes ?? 3 * 1024 * 1024;
  let commits = 0;
  let running: { worker: Worker; exited: Promise<unknown> } | undefined;
  let stopped = false;

  const start = () => {
    const worker = new Worker(CHECKPOINT_WORKER_SOURCE, {
      eval: true,
      workerData: { file, intervalMs: options.intervalMs ?? 250 },
    });
    // The worker never keeps the process alive; stop() ends it when the store closes.
    worker.unref();
    running = { worker, exited: once(worker, 'exit').catch(() => undefined) };
    worker.on('error', () => {
      // Checkpoints are the connection's own again; the worker is not started a second time.
      if (!stopped) db.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      stopped = true;
    });
    db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  };

  return {
    afterCommit() {
      if (running || stopped || ++commits % CHECK_EVERY_COMMITS !== 0) return;
      if (walBytes(file) < startAt) return;
      try {
        start();
      } catch {
        // No thread to be had (the process is at its limits): the connection keeps its own checkpoints,
        // and a commit, which calls this, never fails for it.
        stopped = true;
      }
    },
    get offloaded() {
      return running !== undefined && !stopped;
    },
    async stop() {
      stopped = true;
      if (!running) return;
      // Held again until it has exited: in a process with nothing else left to run (a script or a command
      // that wrote a few MB), the process would otherwise end while this waits, and nothing after the
      // close would run.
      running.worker.ref();
      running.worker.postMessage('stop');
      await running.exited;
    },
  };
}

function walBytes(file: string): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}
