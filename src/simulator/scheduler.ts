/**
 * Every timer of the simulator goes through one Scheduler, so `close()` can cancel them all at once:
 * pending callbacks never run and pending sleeps resolve at once (their owners then see `closed`).
 */
export class Scheduler {
  readonly #timers = new Map<NodeJS.Timeout, (() => void) | null>();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `fn` after `ms`, unless the scheduler closes first. */
  after(ms: number, fn: () => void): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.set(timer, null);
  }

  /** Resolves after `ms`, or as soon as the scheduler closes. */
  sleep(ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.set(timer, resolve);
    });
  }

  close(): void {
    this.#closed = true;
    for (const [timer, resolve] of this.#timers) {
      clearTimeout(timer);
      resolve?.();
    }
    this.#timers.clear();
  }
}
