/**
 * Replies and reactions name an earlier message (`replyTo`, docs/sending.md#replies-and-reactions): the
 * network knows messages by its own ids, so the name becomes that id here. A client may name a message it
 * sent by its own `messageId` (the gateway knows its network id once the network took it), or a message it
 * received by the network id its `message.received` event carried (`wamid.…`).
 */
import { GatewayError } from './errors.ts';
import type { MessagesStore } from './ports/messages.ts';
import type { CloudMessage } from './ports/network.ts';

/** Meta's message ids: `wamid.` and an opaque token. */
const NETWORK_ID = /^wamid\.[A-Za-z0-9+/=_-]{1,240}$/;

export async function repliedTo(
  messages: Pick<MessagesStore, 'findByClientId'>,
  accountId: string,
  replyTo: string,
): Promise<string> {
  const sent = await messages.findByClientId(accountId, replyTo);
  if (sent) {
    if (sent.waId) return sent.waId;
    throw new GatewayError(
      'invalid_request',
      `\`replyTo\` names message "${replyTo}", which the network has not taken (it has no network id to reply to)`,
      { field: 'replyTo' },
    );
  }
  if (NETWORK_ID.test(replyTo)) return replyTo;
  throw new GatewayError(
    'invalid_request',
    '`replyTo` must be the `messageId` of a message you sent or the network id (`wamid.…`) of a message you received',
    { field: 'replyTo' },
  );
}

/** The message with the network's `context` that quotes `replyTo`; a reaction names its message itself. */
export function withReply(cloud: CloudMessage, replyTo: string | undefined): CloudMessage {
  if (replyTo === undefined || cloud.type === 'reaction') return cloud;
  return { ...cloud, context: { message_id: replyTo } };
}
