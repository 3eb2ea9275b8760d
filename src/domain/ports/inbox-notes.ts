/** Notes between members on a conversation (src/domain/inbox/inbox-notes.ts), as the domain needs them stored. */

export interface InboxNote {
  id: string;
  conversationId: string;
  /** The email of the member who wrote it; null once that member is no longer in the account. */
  author: string | null;
  text: string;
  createdAt: number;
}

export interface InboxNotesStore {
  /** The conversation's notes, oldest first (the newest `limit`). */
  list(accountId: string, conversationId: string, limit: number): Promise<InboxNote[]>;
  add(note: {
    id: string;
    accountId: string;
    conversationId: string;
    authorId: string;
    text: string;
    createdAt: number;
  }): Promise<void>;
}
