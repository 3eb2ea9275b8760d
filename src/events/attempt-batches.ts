/**
 * The dispatcher's attempts wait here to be recorded, in batches (docs/adr/0033-webhook-attempt-batches.md):
 * the first outcome of a quiet moment is written at the end of its event-loop turn, and the outcomes that
 * end while a write is under way are written together by the next one. A busy dispatcher thus writes once
 * for many attempts, and a quiet one without any wait.
 */

/** The most outcomes written by one statement (the arrays' lengths on PostgreSQL). */
const MAX_BATCH = 500;

interface Waiting<T> {
  outcome: T;
  recorded: () => void;
}

export class AttemptBatches<T> {
  readonly #write: (outcomes: T[]) => Promise<void>;
  readonly #onError: (error: unknown, count: number) => void;
  #queue: Waiting<T>[] = [];
  #writing = false;
  #inWrite = 0;

  /**
   * `write` records a batch. When it fails, `onError` hears of it once for the batch: the attempts stay
   * claimed until their claims expire, and then go out again (an attempt is never lost, at worst repeated).
   */
  constructor(write: (outcomes: T[]) => Promise<void>, onError: (error: unknown, count: number) => void) {
    this.#write = write;
    this.#onError = onError;
  }

  /** Outcomes not yet written: waiting, or in the write under way. */
  get waiting(): number {
    return this.#queue.length + this.#inWrite;
  }

  /** Resolves once the outcome's batch was written, or failed to be. */
  record(outcome: T): Promise<void> {
    return new Promise((recorded) => {
      this.#queue.push({ outcome, recorded });
      if (this.#writing) return;
      this.#writing = true;
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      this.#inWrite = batch.length;
      try {
        await this.#write(batch.map((w) => w.outcome));
      } catch (error) {
        this.#onError(error, batch.length);
      }
      this.#inWrite = 0;
      for (const w of batch) w.recorded();
    }
    this.#writing = false;
  }
}
