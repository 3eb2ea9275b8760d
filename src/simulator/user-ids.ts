/**
 * Business-scoped user ids on the simulated network (docs/cloud-api.md §10): every user gets one id per
 * business number (each number is its own portfolio here), the same every time: the country of their
 * number, a dot, and 20 digits derived from the pair. The network remembers the ids it gave out, so a send
 * may name its recipient by id (`recipient`); the ids are kept in the state journal with the rest.
 */
import { createHash } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { StateJournal } from './state/journal.ts';

/** The journal's kind, keyed by `<business>:<user id>`; the value is the user's number. */
export const USER_ID_KIND = 'user-id';

export class UserIds {
  /** `<business>:<user id>` → the user's number. */
  readonly #phones = new Map<string, string>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The ids a journal kept (state/restore.ts). */
  restore(records: { key: string; value: string }[]): void {
    for (const { key, value } of records) this.#phones.set(key, value);
  }

  /** The id of `user` for `business`, noted so a send can name it. */
  idOf(business: string, user: string): string {
    const country = parsePhoneNumberFromString(`+${user}`)?.country ?? 'US';
    const hash = createHash('sha256').update(`${business}:${user}`).digest();
    const digits = (hash.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0');
    const id = `${country}.${digits}`;
    const key = `${business}:${id}`;
    if (!this.#phones.has(key)) {
      this.#phones.set(key, user);
      this.#journal.put(USER_ID_KIND, key, user);
    }
    return id;
  }

  /** The number behind an id this business's users were given, if any. */
  phoneOf(business: string, id: string): string | undefined {
    return this.#phones.get(`${business}:${id}`);
  }
}
