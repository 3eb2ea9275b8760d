/**
 * Notes between the members of a team on a conversation (docs/inbox.md, "Notes"): what one member tells
 * the others ("refund sent", "call her back on Monday"), shown on the conversation to everyone who may
 * open the inbox, never sent to the customer. A note is kept as written, with who wrote it and when.
 */
import { newId } from '../../lib/ids.ts';
import { GatewayError } from '../errors.ts';
import type { Conversation } from '../ports/inbox.ts';
import type { InboxNote, InboxNotesStore } from '../ports/inbox-notes.ts';
import { conversationOf, type InboxDeps } from './inbox-service.ts';

export const NOTE_LIMITS = { textMax: 4096, shown: 100 } as const;

export interface NoteDeps extends InboxDeps {
  notes: InboxNotesStore;
}

/**
 * The newest notes of a conversation already found in the account (openConversation, conversationOf),
 * oldest first: the page that shows them has read the conversation, so it is not read again.
 */
export function notesOf(deps: NoteDeps, accountId: string, conversation: Conversation): Promise<InboxNote[]> {
  return deps.notes.list(accountId, conversation.id, NOTE_LIMITS.shown);
}

export async function addNote(
  deps: NoteDeps,
  accountId: string,
  conversationId: string,
  authorId: string,
  text: string,
  now: number,
): Promise<void> {
  await conversationOf(deps, accountId, conversationId);
  const trimmed = text.trim();
  if (trimmed === '' || [...trimmed].length > NOTE_LIMITS.textMax)
    throw new GatewayError('invalid_request', `\`note\` must be 1 to ${NOTE_LIMITS.textMax} characters`, {
      field: 'note',
    });
  await deps.notes.add({
    id: newId('nte', now),
    accountId,
    conversationId,
    authorId,
    text: trimmed,
    createdAt: now,
  });
}
