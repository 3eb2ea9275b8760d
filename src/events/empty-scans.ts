/**
 * Claims that leave out capped endpoints or accounts (delivery-slots.ts) cost in proportion to what they
 * leave out: nothing indexes "due, but not for these", so a claim that skips an endpoint with a backlog of
 * 10,000 deliveries reads all 10,000 to find the others. When such a claim found nothing else due, the same
 * claim, or one leaving out even more, would find nothing either until something changes: new events (a
 * wake), or time (retries falling due, claims expiring, which the next poll looks at). This remembers the
 * last such empty claim, so that the dispatcher does not repeat it after every batch of deliveries.
 */

interface EmptyScan {
  until: number;
  accounts: ReadonlySet<string>;
  endpoints: ReadonlySet<string>;
}

export class EmptyScans {
  #last: EmptyScan | null = null;

  /** A claim leaving out these accounts and endpoints found nothing due; believed until `until`. */
  noteEmpty(skipAccounts: readonly string[], skipEndpoints: readonly string[], until: number): void {
    if (skipAccounts.length + skipEndpoints.length === 0) return;
    this.#last = { until, accounts: new Set(skipAccounts), endpoints: new Set(skipEndpoints) };
  }

  /** New events were written: anything may be due now. */
  forget(): void {
    this.#last = null;
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
