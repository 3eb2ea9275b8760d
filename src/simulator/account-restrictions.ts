/**
 * Business numbers whose WhatsApp Business Account Meta has restricted from starting conversations
 * (`RESTRICTED_BIZ_INITIATED_MESSAGING`, docs/cloud-api.md §3.9). Each number being its own WABA here
 * (README.md), the restriction is kept per number. While it lasts the network refuses the number's
 * templates with error 368 (routes-graph.ts); replies inside a customer-service window still go, as only
 * business-initiated messaging is restricted. It ends at its expiration, or when lifted.
 *
 * Kept in the state journal like the users who stopped a number's marketing (marketing-stops.ts).
 */
import type { StateJournal } from './state/journal.ts';

/** The journal's kind, keyed by the number, holding `{until}` (epoch ms, or null: until lifted). */
export const RESTRICTION_KIND = 'account-restriction';

export interface Restriction {
  until: number | null;
}

export class AccountRestrictions {
  readonly #restricted = new Map<string, Restriction>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** What a journal kept (state/restore.ts). */
  restore(records: { key: string; value: Restriction }[]): void {
    for (const { key, value } of records) this.#restricted.set(key, value);
  }

  /** The restriction of the number in force at `now`, if any. */
  at(business: string, now: number): Restriction | undefined {
    const restriction = this.#restricted.get(business);
    return restriction && (restriction.until === null || restriction.until > now) ? restriction : undefined;
  }

  restrict(business: string, until: number | null): void {
    const restriction = { until };
    this.#restricted.set(business, restriction);
    this.#journal.put(RESTRICTION_KIND, business, restriction);
  }

  lift(business: string): void {
    if (this.#restricted.delete(business)) this.#journal.remove(RESTRICTION_KIND, business);
  }
}
