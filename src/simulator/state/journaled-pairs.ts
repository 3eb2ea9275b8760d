/**
 * A set of (business number, user) pairs kept in the state journal under one kind, keyed by
 * `<business>:<user number>`: a record exists only while the pair is in the set. Blocked users
 * (blocked-users.ts) and users who stopped a business's marketing (marketing-stops.ts) are such sets.
 */
import type { StateJournal } from './journal.ts';

export class JournaledPairs {
  readonly #pairs = new Set<string>();
  readonly #journal: StateJournal;
  readonly #kind: string;

  constructor(journal: StateJournal, kind: string) {
    this.#journal = journal;
    this.#kind = kind;
  }

  restore(records: { key: string }[]): void {
    for (const { key } of records) this.#pairs.add(key);
  }

  has(business: string, user: string): boolean {
    return this.#pairs.has(`${business}:${user}`);
  }

  set(business: string, user: string, on: boolean): void {
    const key = `${business}:${user}`;
    if (on) {
      this.#pairs.add(key);
      this.#journal.put(this.#kind, key, true);
    } else if (this.#pairs.delete(key)) {
      this.#journal.remove(this.#kind, key);
    }
  }

  /** The users paired with `business`. */
  usersOf(business: string): string[] {
    return [...this.#pairs]
      .filter((k) => k.startsWith(`${business}:`))
      .map((k) => k.slice(business.length + 1));
  }
}
