/**
 * The simulator's write-behind journal over its state store (store-port.ts). Its parts keep working on
 * their in-memory objects, synchronously, and tell the journal which record changed; the journal writes
 * the changes in batches, one transaction each, and the plugin answers no request before the changes that
 * request made are written (`settled`, awaited in an onSend hook of index.ts). So what a client was told
 * happened survives a kill -9, and a burst of sends costs one transaction per batch, not one per change.
 *
 * A record that changes several times before its batch is written is written once, as it is then: values
 * are serialized when the batch is taken, not when the change is noted.
 */
import type { SimulatorStateStore, StateChange } from './store-port.ts';

/** A value to store (serialized as JSON when its batch is written), a function giving it, or a deletion. */
type Pending = { kind: string; key: string; value: unknown; remove: boolean };

interface Waiter {
  /** Resolved once every change up to this count is written. */
  upTo: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** How long a failed write waits before it is tried again. */
const RETRY_MS = 1000;

export class StateJournal {
  readonly #store: SimulatorStateStore | null;
  readonly #logger: { warn(obj: object, msg: string): void } | undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #waiters: Waiter[] = [];
  /** Changes noted so far, and how many of them are written. */
  #noted = 0;
  #written = 0;
  #writing = false;
  #scheduled = false;
  #closed = false;

  constructor(store: SimulatorStateStore | null, logger?: { warn(obj: object, msg: string): void }) {
    this.#store = store;
    this.#logger = logger;
  }

  /** Whether changes are kept anywhere but in memory. */
  get durable(): boolean {
    return this.#store !== null;
  }

  /** The record `kind`/`key` now holds `value` (or what the function gives when the batch is written). */
  put(kind: string, key: string, value: unknown): void {
    this.#note({ kind, key, value, remove: false });
  }

  remove(kind: string, key: string): void {
    this.#note({ kind, key, value: null, remove: true });
  }

  /** Resolves once every change noted before this call is written; rejects when that write failed. */
  settled(): Promise<void> {
    if (this.#written >= this.#noted) return Promise.resolve();
    const upTo = this.#noted;
    return new Promise((resolve, reject) => this.#waiters.push({ upTo, resolve, reject }));
  }

  /** Writes what is pending, then notes nothing more (the simulator is closing). */
  async close(): Promise<void> {
    // Retries of a failed write end here: what could not be written by now is reported by the last try.
    await this.settled().catch(() => undefined);
    this.#closed = true;
  }

  #note(change: Pending): void {
    if (!this.#store || this.#closed) return;
    const id = `${change.kind}\u0000${change.key}`;
    // Map order is insertion order: a record noted again moves to the end, after what it may depend on.
    this.#pending.delete(id);
    this.#pending.set(id, change);
    this.#noted++;
    this.#schedule(0);
  }

  #schedule(ms: number): void {
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    // setImmediate lets the rest of the current request (and its neighbours) note their changes first.
    const run = () => {
      this.#scheduled = false;
      void this.#flush();
    };
    if (ms === 0) setImmediate(run);
    else setTimeout(run, ms).unref();
  }

  async #flush(): Promise<void> {
    const store = this.#store;
    if (!store || this.#pending.size === 0) return;
    this.#writing = true;
    const batch = [...this.#pending.values()];
    const upTo = this.#noted;
    this.#pending.clear();
    let failure: Error | null = null;
    try {
      await store.write(batch.map(serialize));
      this.#written = upTo;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      this.#logger?.warn({ err: failure, records: batch.length }, 'simulator state not written; retrying');
      // Put the batch back under whatever was noted since (a newer value of a record wins).
      const newer = new Map(this.#pending);
      this.#pending.clear();
      for (const change of batch) this.#pending.set(`${change.kind}\u0000${change.key}`, change);
      for (const [id, change] of newer) {
        this.#pending.delete(id);
        this.#pending.set(id, change);
      }
    } finally {
      this.#writing = false;
    }
    this.#answerWaiters(upTo, failure);
    if (this.#pending.size > 0) this.#schedule(failure ? RETRY_MS : 0);
  }

  #answerWaiters(upTo: number, failure: Error | null): void {
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i] as Waiter;
      if (waiter.upTo > upTo) continue;
      this.#waiters.splice(i, 1);
      if (failure) waiter.reject(failure);
      else waiter.resolve();
    }
  }
}

function serialize(change: Pending): StateChange {
  if (change.remove) return { kind: change.kind, key: change.key, value: null };
  const value = typeof change.value === 'function' ? (change.value as () => unknown)() : change.value;
  return { kind: change.kind, key: change.key, value: JSON.stringify(value) };
}
