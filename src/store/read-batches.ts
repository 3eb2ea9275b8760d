/**
 * The same read asked by many concurrent requests, answered by one statement (PostgreSQL; docs/adr/0034).
 *
 * Every send reads its API key, its recipient's sandbox membership and window, and the statuses that came
 * before its network id; every status reads its message. Each is a round trip of its own, and on a busy
 * node most of a send's CPU goes to writing statements to sockets and reading their answers. A batched read
 * goes at the end of the event loop's turn in which it was asked (setImmediate), together with every read
 * of its kind asked in that turn, as one statement over the list of their keys; while one is under way,
 * the reads asked meanwhile wait for it to end and go at the end of that turn. An idle node therefore
 * waits only for the rest of its turn, and a busy one sends one statement where it sent dozens. Going at
 * once instead of at the turn's end split a turn's reads over two statements: the PostgreSQL send path did
 * about a fifth fewer sends a second that way (bench/README.md, report of 2026-11-27).
 *
 * A read is never answered by a statement sent before it was asked: it joins only the next statement. So it
 * sees every change committed before it was asked, as a read of its own would (a key revoked a moment
 * before is refused).
 */
import { type Kysely, PostgresAdapter } from 'kysely';
import { atTurnEnd } from '../lib/turn-end.ts';
import type { Database } from './schema.ts';

interface Waiter<R> {
  resolve(rows: R[]): void;
  reject(error: unknown): void;
}

/** Keys per statement, so that one statement's list stays small. */
const MAX_KEYS = 256;

/**
 * `run` reads the rows of every key in `keys` at once; `keyOf` tells which key a row answers. Returns the
 * read of one key: the rows whose `keyOf` is that key, in the order `run` returned them.
 */
export function batchedRead<R>(
  run: (keys: string[]) => Promise<R[]>,
  keyOf: (row: R) => string,
): (key: string) => Promise<R[]> {
  let asked = new Map<string, Waiter<R>[]>();
  let running = false;
  // Starts at the end of this turn of the event loop, with every request of the turn that asked.
  const schedule = atTurnEnd(() => start());

  function take(): Map<string, Waiter<R>[]> {
    if (asked.size <= MAX_KEYS) {
      const all = asked;
      asked = new Map();
      return all;
    }
    const some = new Map<string, Waiter<R>[]>();
    for (const [key, waiters] of asked) {
      if (some.size === MAX_KEYS) break;
      some.set(key, waiters);
      asked.delete(key);
    }
    return some;
  }

  function start(): void {
    if (running || asked.size === 0) return;
    running = true;
    const batch = take();
    run([...batch.keys()])
      .then(
        (rows) => {
          const byKey = new Map<string, R[]>();
          for (const row of rows) {
            const key = keyOf(row);
            const list = byKey.get(key);
            if (list) list.push(row);
            else byKey.set(key, [row]);
          }
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(byKey.get(key) ?? []);
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
        },
      )
      .finally(() => {
        running = false;
        schedule();
      });
  }

  return (key) =>
    new Promise<R[]>((resolve, reject) => {
      const waiters = asked.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else asked.set(key, [{ resolve, reject }]);
      schedule();
    });
}

/** Whether reads of this database are batched: PostgreSQL's; SQLite's run in the process, at no round trip. */
export function batchesReads(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
