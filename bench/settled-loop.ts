/**
 * The full loop measured to its end. autocannon times the answers to the sends; the three status webhooks
 * of each send come later, and a gateway that answers sends faster than it applies their statuses builds a
 * backlog that it works off after the load has stopped. Counted at the answers, such a row reports a rate
 * the gateway cannot keep up (the embedded gateway went on applying statuses for six seconds after a row
 * of ten).
 *
 * So a full-loop row's rate is the messages that reached their last status (READ, or FAILED) per second,
 * from the start of the warm-up until the last of them did; the rate at which clients were answered is kept
 * beside it, with how long the statuses took to catch up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { openStore } from '../src/store/connect.ts';
import type { Result } from './load.ts';

/** The longest wait for the last statuses once the load has stopped. */
const SETTLE_LIMIT_MS = 300_000;
const POLL_MS = 250;

async function counts(store: ReturnType<typeof openStore>) {
  const { rows } = await sql<{ total: number | string; open: number | string | null }>`
    select count(*) as total, sum(case when status_rank < 3 then 1 else 0 end) as open
    from messages`.execute(store.db);
  return { total: Number(rows[0]?.total ?? 0), open: Number(rows[0]?.open ?? 0) };
}

/** Runs `load` (a full-loop row) against the gateway whose database is `databaseUrl`, timed to its end. */
export async function settledLoop(databaseUrl: string, load: () => Promise<Result>): Promise<Result> {
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    const before = await counts(store);
    const started = performance.now();
    const result = await load();
    const loadEnded = performance.now();
    let now = await counts(store);
    while (now.open > 0) {
      if (performance.now() - loadEnded > SETTLE_LIMIT_MS)
        throw new Error(
          `${now.open} messages still had no last status ${SETTLE_LIMIT_MS / 1000} s after the load`,
        );
      await sleep(POLL_MS);
      now = await counts(store);
    }
    const ended = performance.now();
    return {
      ...result,
      requestsPerSecond: Math.round((now.total - before.total) / ((ended - started) / 1000)),
      answeredPerSecond: result.requestsPerSecond,
      settledAfterSeconds: Number(((ended - loadEnded) / 1000).toFixed(1)),
    };
  } finally {
    await store.close();
  }
}
