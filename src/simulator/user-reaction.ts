/**
 * A virtual user reacting to a message a business sent them (docs/cloud-api.md §3.4): the network posts a
 * `reaction` message naming that message, `{"type": "reaction", "reaction": {"message_id", "emoji"}}`,
 * with an empty `emoji` when the user takes their reaction back. Like Meta's, it carries no `context`:
 * the reaction names its message itself.
 */

import { isSingleEmoji } from '../lib/single-emoji.ts';
import type { ReceivedMessage } from './phone-book.ts';
import { isObject, type Json } from './validate-fields.ts';

/** Why the user cannot react to message `id` of `business`, or undefined when they can. */
function notReactable(
  received: readonly ReceivedMessage[],
  business: string,
  id: string,
): string | undefined {
  const message = received.find((m) => m.id === id && m.from === business);
  if (!message) return `this phone received no message from ${business} with id "${id}"`;
  // A message that never reached the phone is not on it to react to; a reaction is not a message of its own on a phone.
  if (message.status === 'failed') return `message "${id}" never reached this phone`;
  if (message.type === 'reaction') return `message "${id}" is a reaction, which takes no reaction`;
  return undefined;
}

/** The inbound content of `reaction: {messageId, emoji}`, or what is wrong with it. */
export function reactionContent(
  value: unknown,
  received: readonly ReceivedMessage[],
  business: string,
): Json | string {
  if (!isObject(value)) return '`reaction` must be an object: {messageId, emoji}';
  const { messageId, emoji } = value;
  if (typeof messageId !== 'string' || messageId === '') {
    return '`reaction.messageId` must be the id of a message this phone received from the business';
  }
  const why = notReactable(received, business, messageId);
  if (why) return `\`reaction.messageId\`: ${why}`;
  if (typeof emoji !== 'string' || (emoji !== '' && !isSingleEmoji(emoji))) {
    return '`reaction.emoji` must be a single emoji, or empty to take the reaction off';
  }
  return { type: 'reaction', reaction: { message_id: messageId, emoji } };
}
