/**
 * The same write of many concurrent requests as one statement (PostgreSQL; docs/adr/0034), as reads are
 * batched in ./read-batches.ts: a write goes at the end of the event loop's turn in which it was asked, with
 * every write of its kind asked in that turn, when none of its kind is under way; the writes asked
 * meanwhile go together in the next statement, which commits them all at once.
 *
 * One statement is atomic: when it fails, none of its writes happened, and each is then tried again alone,
 * so that one request's bad write cannot fail the others that happened to share its statement.
 */
import { atTurnEnd } from '../lib/turn-end.ts';

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** Writes per statement, so that one statement's arrays stay small. */
const MAX_ITEMS = 256;

/**
 * `runMany` writes every item in one statement and returns each item's result in the items' order;
 * `runOne` writes one item alone.
 */
export function batchedWrite<T, R>(
  runMany: (items: T[]) => Promise<R[]>,
  runOne: (item: T) => Promise<R>,
): (item: T) => Promise<R> {
  let asked: Pending<T, R>[] = [];
  let running = false;
  // Starts at the end of this turn of the event loop, with every request of the turn that asked.
  const schedule = atTurnEnd(() => start());

  async function write(batch: Pending<T, R>[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Pending<T, R>];
      await runOne(only.item).then(only.resolve, only.reject);
      return;
    }
    let results: R[];
    try {
      results = await runMany(batch.map((p) => p.item));
    } catch {
      // Nothing of the statement was written: each write goes again alone and gets its own answer.
      await Promise.all(batch.map((p) => runOne(p.item).then(p.resolve, p.reject)));
      return;
    }
    batch.forEach((p, i) => {
      p.resolve(results[i] as R);
    });
  }

  function start(): void {
    if (running || asked.length === 0) return;
    running = true;
    const batch = asked.slice(0, MAX_ITEMS);
    asked = asked.slice(MAX_ITEMS);
    void write(batch).finally(() => {
      running = false;
      schedule();
    });
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      asked.push({ item, resolve, reject });
      schedule();
    });
}
