/**
 * Claims that leave out capped endpoints or accounts (delivery-slots.ts) cost in proportion to what they
 * leave out: nothing indexes "due, but not for these", so a claim that skips an endpoint with a backlog of
 * 10,000 deliveries reads all 10,000 to find the others. When such a claim found nothing else due, the same
 * claim, or one leaving out even more, would find nothing either until something changes: new events (a
 * wake), or time (retries falling due, claims expiring, which the next poll looks at). This remembers the
 * last such empty claim, so that the dispatcher does not repeat it after every batch of deliveries.
 *
 * The same empty claim found empty again is believed twice as long each time, up to QUIET_GROWTH times the
 * first wait: a backlog of one endpoint takes minutes to work off, and each such claim reads all of it (on
 * SQLite, with the event loop held: 18 ms for 20,000 deliveries waiting, four times a second at a 250 ms
 * poll). What it could find then is time's doing (a retry falling due, a claim expiring): a new event wakes
 * the node that wrote it, which forgets at once, and a retry's first wait is seconds.
 */

/** How many times the first wait an empty claim repeated again and again is believed, at most. */
const QUIET_GROWTH = 8;

interface EmptyScan {
  until: number;
  accounts: ReadonlySet<string>;
  endpoints: ReadonlySet<string>;
}

export class EmptyScans {
  #last: EmptyScan | null = null;
  /** How many times in a row the same claim was found empty, the first not counted. */
  #repeats = 0;

  /**
   * A claim leaving out these accounts and endpoints ran at `now`. Found empty, it is believed for
   * `waitMs`, or longer when the same claim was found empty just before (QUIET_GROWTH); one that found
   * deliveries starts it all over (`forget`). A claim leaving nothing out is not remembered.
   */
  noteClaim(
    skipAccounts: readonly string[],
    skipEndpoints: readonly string[],
    found: boolean,
    now: number,
    waitMs: number,
  ): void {
    if (skipAccounts.length + skipEndpoints.length === 0) return;
    if (found) {
      this.forget();
      return;
    }
    const accounts = new Set(skipAccounts);
    const endpoints = new Set(skipEndpoints);
    const last = this.#last;
    const again = last !== null && sameSet(last.accounts, accounts) && sameSet(last.endpoints, endpoints);
    this.#repeats = again ? this.#repeats + 1 : 0;
    const wait = waitMs * Math.min(2 ** this.#repeats, QUIET_GROWTH);
    this.#last = { until: now + wait, accounts, endpoints };
  }

  /**
   * New events were written, or a claim leaving something out found deliveries: anything may be due now,
   * and the next empty claim is believed for the first wait again.
   */
  forget(): void {
    this.#last = null;
    this.#repeats = 0;
  }

  /** Whether a claim leaving out these could find what the last empty one did not. */
  worthClaiming(skipAccounts: readonly string[], skipEndpoints: readonly string[], now: number): boolean {
    const last = this.#last;
    if (last === null || now >= last.until) return true;
    const accounts = new Set(skipAccounts);
    const endpoints = new Set(skipEndpoints);
    // It leaves out everything the empty one did (and perhaps more): it cannot find more.
    const coversLast =
      [...last.accounts].every((a) => accounts.has(a)) && [...last.endpoints].every((e) => endpoints.has(e));
    return !coversLast;
  }
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
