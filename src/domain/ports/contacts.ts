/**
 * An account's contacts (docs/contacts.md), in the domain's terms (src/store/contacts-repo.ts maps its
 * rows). Every read and change is scoped by account: another account's contact is not found.
 */

export interface Contact {
  id: string;
  accountId: string;
  /** E.164 digits, or null when only the user id is known. */
  phone: string | null;
  /** The business-scoped user id (docs/cloud-api.md §10), or null. */
  userId: string | null;
  name: string | null;
  tags: string[];
  attributes: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

/** What an upsert or an update says; an absent field is left as it is. */
export interface ContactChanges {
  phone?: string;
  userId?: string;
  name?: string | null;
  /** Replaces the contact's tags. */
  tags?: string[];
  /** Merged into the contact's attributes; a null value removes the attribute. */
  attributes?: Record<string, string | null>;
}

/** A change would give a contact the phone number or user id of another contact of the account. */
export class ContactKeyTaken extends Error {
  override name = 'ContactKeyTaken';
}

export interface ContactsStore {
  /**
   * The contact with this phone number (or, without one, this user id) made or changed; `created` says
   * which. Concurrent upserts of one person make one contact. Throws ContactKeyTaken when the number and
   * the user id are two different contacts'.
   */
  upsert(
    accountId: string,
    changes: ContactChanges,
    at: number,
  ): Promise<{ contact: Contact; created: boolean }>;
  /**
   * Many upserts at once, in order (an import's batch): each change's outcome, `taken` when it would give
   * a contact another's number or user id; null, with nothing changed, when a concurrent writer made one
   * of these contacts meanwhile (the caller then upserts one by one).
   */
  upsertMany(
    accountId: string,
    changes: ContactChanges[],
    at: number,
  ): Promise<('created' | 'updated' | 'taken')[] | null>;
  /** A user who wrote to the account: made a contact if unknown, named by their profile if unnamed. */
  rememberSender(
    accountId: string,
    sender: { phone: string | null; userId: string | null; name: string | null },
    at: number,
  ): Promise<void>;
  find(accountId: string, id: string): Promise<Contact | undefined>;
  /** The account's tags with how many contacts have each, the most used first, at most `limit`. */
  tagsInUse(accountId: string, limit: number): Promise<{ tag: string; contacts: number }[]>;
  /** Oldest first; `tag` keeps the contacts that have it. */
  list(
    accountId: string,
    filter: { tag?: string | undefined },
    page: { offset: number; limit: number },
  ): Promise<{ contacts: Contact[]; total: number }>;
  /** Throws ContactKeyTaken when the new number or user id is another contact's. */
  update(accountId: string, id: string, changes: ContactChanges, at: number): Promise<Contact | undefined>;
  delete(accountId: string, id: string): Promise<boolean>;
}
