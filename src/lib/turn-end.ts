/**
 * `run` once at the end of the current turn of the event loop (setImmediate), however many times the
 * returned function is called before then: the work of everything that asked in one turn, done together
 * (batched statements in src/store/read-batches.ts and src/store/write-batches.ts, SQLite's group commit
 * in src/store/node-sqlite-dialect.ts, the webhook dispatcher's claims in src/events/dispatcher.ts).
 */
export function atTurnEnd(run: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      run();
    });
  };
}
