/**
 * A reaction: one emoji put on an earlier message of the conversation (the one `replyTo` names), or an
 * empty `emoji` to take the reaction off (docs/cloud-api.md §1.3, docs/sending.md#replies-and-reactions).
 * Like any free-form message it needs an open conversation.
 */
import { Type } from 'typebox';
import { isSingleEmoji } from '../../lib/single-emoji.ts';
import { type CommonFields, commonFields, ok, refuse, type SendOperation } from './send-operation.ts';

type Body = CommonFields & { emoji: string };
export interface ReactionContent {
  emoji: string;
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    emoji: Type.String({
      maxLength: 32,
      description: 'one emoji, or an empty string to take the reaction off',
    }),
  },
  { additionalProperties: false },
);

export const sendReaction: SendOperation<Body, ReactionContent, typeof bodySchema> = {
  kind: 'reaction',
  summary: 'React to a message with an emoji',
  bodySchema,
  normalize(body) {
    if (body.replyTo === undefined)
      return refuse('replyTo', '`replyTo` is required: the message to react to');
    if (body.emoji !== '' && !isSingleEmoji(body.emoji))
      return refuse('emoji', '`emoji` must be a single emoji, or empty to take the reaction off');
    return ok({ emoji: body.emoji });
  },
  toCloud: ({ emoji }, context) => ({
    type: 'reaction',
    reaction: { message_id: context.replyTo, emoji },
  }),
};
