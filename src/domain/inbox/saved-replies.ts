/**
 * Saved replies of the inbox (docs/inbox.md, "Saved replies"): texts a team writes once and puts into a
 * reply with a click, each under a short name of its own (its shortcut), per account. Anyone who may open
 * the inbox uses and manages them. A saved reply is only a text put in the reply box: the agent still
 * reads, changes and sends it, within the 24-hour window like any text.
 */
import { newId } from '../../lib/ids.ts';
import { GatewayError } from '../errors.ts';
import type { SavedRepliesStore, SavedReply } from '../ports/saved-replies.ts';

export const SAVED_REPLY_LIMITS = {
  shortcutMax: 32,
  /** The network's limit for a text message's body. */
  textMax: 4096,
  perAccount: 200,
} as const;

const SHORTCUT = /^[a-z0-9][a-z0-9_-]*$/;

function invalid(field: 'shortcut' | 'text', message: string): GatewayError {
  return new GatewayError('invalid_request', message, { field });
}

export function listSavedReplies(store: SavedRepliesStore, accountId: string): Promise<SavedReply[]> {
  return store.list(accountId);
}

/** The text of the account's saved reply `id`; another account's, or none, is undefined. */
export async function savedReplyText(
  store: SavedRepliesStore,
  accountId: string,
  id: string,
): Promise<string | undefined> {
  return id ? (await store.find(accountId, id))?.text : undefined;
}

export async function addSavedReply(
  store: SavedRepliesStore,
  accountId: string,
  input: { shortcut: string; text: string },
  now: number,
): Promise<SavedReply> {
  const shortcut = input.shortcut.trim().toLowerCase();
  const { shortcutMax, textMax, perAccount } = SAVED_REPLY_LIMITS;
  if (!SHORTCUT.test(shortcut) || shortcut.length > shortcutMax)
    throw invalid(
      'shortcut',
      `\`shortcut\` must be 1 to ${shortcutMax} letters, digits, - or _, starting with a letter or digit`,
    );
  const text = input.text.trim();
  if (text === '' || [...text].length > textMax)
    throw invalid('text', `\`text\` must be 1 to ${textMax} characters`);
  const reply: SavedReply = { id: newId('svr', now), accountId, shortcut, text, createdAt: now };
  const outcome = await store.insert(reply, perAccount);
  if (outcome === 'taken')
    throw new GatewayError('conflict', `\`shortcut\`: the account has a saved reply named ${shortcut}`, {
      field: 'shortcut',
    });
  if (outcome === 'full')
    throw new GatewayError(
      'conflict',
      `The account has ${perAccount} saved replies, the most it may keep: remove one first.`,
    );
  return reply;
}

export async function removeSavedReply(store: SavedRepliesStore, accountId: string, id: string) {
  if (!(await store.remove(accountId, id)))
    throw new GatewayError('not_found', 'There is no such saved reply in this account.');
}
