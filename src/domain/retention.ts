/**
 * Data retention (docs/operations.md, Retention): traffic older than RETENTION_DAYS — sent and received
 * messages, their status history, stored media, webhook events and deliveries — is removed in the
 * background, so a year of traffic does not weigh on the send path. Work is done in small batches, and
 * after each batch the job rests twice as long as the batch took: it never holds the database (or, on
 * SQLite, the event loop) for more than a third of the time, so sends keep their latency while a day's
 * data goes.
 *
 * What a send waits for, at worst, is one batch's statements: the batch's size sets the sends' p99 while
 * the job runs. Measured with `npm run bench`'s large store on SQLite (bench/README.md, 2026-11-26 17:23
 * and after), against the p99 of the same store without the job: batches of 1,000 resting as long as they
 * took, 68 ms against 39; of 250, 59 against 45; of 200 resting twice as long, 42 and 46 against 40 and 43,
 * removing about 3,000 messages a second with their history.
 *
 * Every node runs it; the removals are idempotent, so two nodes at once only share the work.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RetentionStore } from './ports/retention.ts';

export const RETENTION_BATCH = 200;
/** How often the job looks for expired data when there was none left. */
export const RETENTION_EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

export interface RetentionOptions {
  store: RetentionStore;
  maxAgeDays: number;
  now: () => number;
  logger: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  everyMs?: number;
  /** The first turn after start (default 1 s). */
  firstAfterMs?: number;
}

export interface RetentionJob {
  start(): void;
  /** Removes everything expired now, batch after batch; resolves how many records went (tests, the CLI). */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a batch under way, so the database can close after it. */
  stop(): Promise<void>;
}

export function retentionJob(options: RetentionOptions): RetentionJob {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> | undefined;

  async function removeExpired(keepGoing: () => boolean): Promise<number> {
    const cutoff = options.now() - options.maxAgeDays * DAY_MS;
    let removed = 0;
    for (;;) {
      const started = performance.now();
      const most = await options.store.removeBefore(cutoff, RETENTION_BATCH);
      removed += most;
      if (most < RETENTION_BATCH || !keepGoing()) return removed;
      await sleep(2 * (performance.now() - started));
    }
  }

  async function turn(): Promise<void> {
    try {
      const removed = await removeExpired(() => running);
      if (removed > 0) options.logger.info({ removed }, 'retention removed expired records');
    } catch (error) {
      options.logger.error({ err: error }, 'retention failed; it runs again on its next turn');
    }
    if (running) timer = setTimeout(() => (current = turn()), options.everyMs ?? RETENTION_EVERY_MS);
  }

  return {
    start() {
      if (running || options.maxAgeDays <= 0) return;
      running = true;
      // Soon after start, so an install that was down catches up; then every few minutes.
      timer = setTimeout(() => (current = turn()), options.firstAfterMs ?? 1000);
    },
    runOnce: async () => (options.maxAgeDays > 0 ? removeExpired(() => true) : 0),
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
