/**
 * A rate limit per key as the generic cell rate algorithm: a token bucket kept as one number per key (the
 * time its bucket would be full again), so checking a send allocates nothing once the key is known.
 * Used by the gateway to pace its sends per business number, to limit requests per API key on one node
 * (src/domain/rate-limit.ts; PostgreSQL runs the same arithmetic in SQL when nodes share it), and by the
 * simulator to enforce Meta's per-number throughput and per-pair rate (docs/cloud-api.md §7).
 */
export class Gcra {
  /** Per key: the theoretical arrival time of the next event, in ms of `performance.now()`. */
  readonly #tat = new Map<string, number>();
  readonly #intervalMs: number;
  readonly #toleranceMs: number;
  readonly #maxKeys: number;

  /**
   * @param intervalMs spacing of events at the sustained rate (1000 / events per second)
   * @param burst how many events may arrive at once on a rested key (at least 1)
   * @param maxKeys keys kept before rested ones are forgotten (a forgotten key behaves as a rested one)
   */
  constructor(intervalMs: number, burst: number, maxKeys = 10_000) {
    this.#intervalMs = intervalMs;
    this.#toleranceMs = Math.max(0, burst - 1) * intervalMs;
    this.#maxKeys = maxKeys;
  }

  /**
   * Books one event for `key` if it conforms within `maxWaitMs`. Returns how long the caller must wait
   * before acting (0 = now). A result above `maxWaitMs` means refused: nothing was booked, and the result
   * is how long until the event would conform.
   */
  reserve(key: string, maxWaitMs = 0, now = performance.now()): number {
    const stored = this.#tat.get(key);
    const tat = stored === undefined ? now : Math.max(stored, now);
    const wait = tat - this.#toleranceMs - now;
    if (wait > maxWaitMs) return wait;
    if (stored === undefined && this.#tat.size >= this.#maxKeys) this.#forgetRested(now);
    this.#tat.set(key, tat + this.#intervalMs);
    return Math.max(wait, 0);
  }

  /** The key's theoretical arrival time, if it has one (a key without one is rested). */
  tatOf(key: string): number | undefined {
    return this.#tat.get(key);
  }

  /** Keys whose bucket is full again carry no information; past the cap, the oldest go too. */
  #forgetRested(now: number): void {
    for (const [key, tat] of this.#tat) if (tat <= now) this.#tat.delete(key);
    for (const key of this.#tat.keys()) {
      if (this.#tat.size < this.#maxKeys) break;
      this.#tat.delete(key);
    }
  }
}
