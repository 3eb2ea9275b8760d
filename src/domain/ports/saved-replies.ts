/** The inbox's saved replies (src/domain/inbox/saved-replies.ts), as the domain needs them stored. */

export interface SavedReply {
  id: string;
  accountId: string;
  /** Lower-case letters, digits, `-` and `_`; unique within the account. */
  shortcut: string;
  text: string;
  createdAt: number;
}

export interface SavedRepliesStore {
  /** The account's saved replies, by shortcut. */
  list(accountId: string): Promise<SavedReply[]>;
  find(accountId: string, id: string): Promise<SavedReply | undefined>;
  /** Stores it: `taken` when the account has its shortcut already, `full` when it has `max` of them. */
  insert(reply: SavedReply, max: number): Promise<'stored' | 'taken' | 'full'>;
  /** Removes the account's saved reply; false when it has no such one. */
  remove(accountId: string, id: string): Promise<boolean>;
}
