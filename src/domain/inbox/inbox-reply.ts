/**
 * Answering a customer from the inbox (docs/inbox.md): inside the 24-hour window a text, or a file by its
 * https link or uploaded for the conversation's number (outbound-media.ts); at any time an approved template with its values. Each is the API's own send (the same
 * schema, the same pipeline, the same refusals), from the conversation's number to its user, under a
 * messageId the reply form carries: sending the form twice sends one message.
 */

import { schemaProblem } from '../../lib/schema-check.ts';
import { userLabel } from '../../lib/user-id.ts';
import { GatewayError } from '../errors.ts';
import { messageSummary } from '../message-summary.ts';
import { sendMedia } from '../messages/send-media.ts';
import type { SendOperation } from '../messages/send-operation.ts';
import { sendTemplate } from '../messages/send-template.ts';
import { sendText } from '../messages/send-text.ts';
import type { Conversation } from '../ports/inbox.ts';
import type { InboxNotesStore } from '../ports/inbox-notes.ts';
import type { SavedRepliesStore } from '../ports/saved-replies.ts';
import { type CommonSendFields, type SendDeps, type SendResultData, sendMessage } from '../send-message.ts';
import { withOwnTemplateNames } from '../templates/sandbox-names.ts';
import { conversationOf, type InboxDeps } from './inbox-service.ts';

/** A template's header value: the text of its {{1}}, or the link of its image, video or document. */
export type ReplyHeader =
  | { type: 'TEXT'; parameter: string }
  | { type: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; mediaUrl: string };

export type InboxReply =
  | { kind: 'text'; message: string }
  | { kind: 'media'; mediaType: string; caption?: string; mediaUrl?: string; mediaId?: string }
  | {
      kind: 'template';
      name: string;
      language: string;
      parameters: string[];
      header?: ReplyHeader;
      /** The end of each link button's URL, by the button's index. */
      buttons?: { index: number; parameter: string }[];
    };

export interface InboxReplyDeps extends InboxDeps {
  send: SendDeps;
  /** Texts the team put into replies with a click (saved-replies.ts). */
  savedReplies: SavedRepliesStore;
  /** Notes between members on a conversation (inbox-notes.ts). */
  notes: InboxNotesStore;
}

function bodyOf(common: CommonSendFields, reply: InboxReply): Record<string, unknown> {
  switch (reply.kind) {
    case 'text':
      return { ...common, message: reply.message };
    case 'media':
      return {
        ...common,
        mediaType: reply.mediaType,
        ...(reply.mediaId ? { mediaId: reply.mediaId } : { mediaUrl: reply.mediaUrl }),
        ...(reply.caption ? { caption: reply.caption } : {}),
      };
    case 'template':
      return {
        ...common,
        template: {
          name: reply.name,
          language: reply.language,
          components: {
            ...(reply.parameters.length ? { body: { parameters: reply.parameters } } : {}),
            ...(reply.header ? { header: reply.header } : {}),
            ...(reply.buttons?.length ? { buttons: reply.buttons } : {}),
          },
        },
      };
  }
}

const OPERATIONS = { text: sendText, media: sendMedia, template: sendTemplate };

/** Sends the reply and moves the conversation up with it; a refusal is the send's own GatewayError. */
export async function replyInConversation(
  deps: InboxReplyDeps,
  accountId: string,
  conversationId: string,
  messageId: string,
  reply: InboxReply,
  /** The member who sends it (a portal user's id). */
  authorId: string,
): Promise<SendResultData> {
  const conversation: Conversation = await conversationOf(deps, accountId, conversationId);
  const common = { messageId, from: `+${conversation.businessPhone}`, to: userLabel(conversation.userPhone) };
  const body = bodyOf(common, reply);
  // Each operation is typed by its own body; the schema check below is what makes `body` one of them.
  const operation = OPERATIONS[reply.kind] as SendOperation<CommonSendFields, unknown>;
  const problem = schemaProblem(operation.bodySchema, body);
  if (problem) throw new GatewayError('invalid_request', problem);
  const result = await sendMessage(deps.send, accountId, operation, body as unknown as CommonSendFields);
  const sent = await deps.send.messages.findByClientId(accountId, messageId);
  if (sent) {
    const at = (deps.now ?? Date.now)();
    await deps.inbox.recordReply(accountId, conversationId, {
      // A sandbox template goes by its network name (sandbox-names.ts): the list shows the account's own.
      preview: withOwnTemplateNames(messageSummary(sent.kind, sent.content), accountId),
      at,
      clientMessageId: messageId,
      authorId,
    });
  }
  return result;
}
