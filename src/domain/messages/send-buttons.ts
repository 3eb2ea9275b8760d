/**
 * Operation 6: up to three quick-reply buttons. The body text comes as `message` (the table) or `text`
 * (the sample). Ids ≤ 256 without surrounding spaces, titles ≤ 20, both unique (docs/contract.md §3,
 * docs/cloud-api.md §1.5).
 */
import { Type } from 'typebox';
import {
  type CommonFields,
  commonFields,
  eitherSpelling,
  firstDuplicate,
  ok,
  refuse,
  type SendOperation,
  text,
} from './send-operation.ts';

interface Button {
  id: string;
  title: string;
}
type Body = CommonFields & { message?: string; text?: string; buttons: Button[] };
export interface ButtonsContent {
  text: string;
  buttons: Button[];
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    message: Type.Optional(text(1, 1024, { description: 'the body text (or send it as `text`)' })),
    text: Type.Optional(text(1, 1024, { description: 'alias of `message`, as in the sample request' })),
    buttons: Type.Array(
      Type.Object(
        {
          id: text(1, 256, { description: 'returned in the reply; unique, no surrounding spaces' }),
          title: text(1, 20, { description: 'shown on the button; unique' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 3 },
    ),
  },
  { additionalProperties: false },
);

export const sendButtons: SendOperation<Body, ButtonsContent, typeof bodySchema> = {
  kind: 'buttons',
  summary: 'Send a message with one to three quick-reply buttons',
  bodySchema,
  normalize(body) {
    const bodyText = eitherSpelling(
      { name: 'message', value: body.message },
      { name: 'text', value: body.text },
    );
    if (!bodyText.ok) return bodyText;
    // The network refuses both (docs/cloud-api.md §1.3): an id it would trim, a title with nothing to show.
    for (const [i, b] of body.buttons.entries()) {
      if (b.id.trim() !== b.id)
        return refuse(`buttons[${i}].id`, `\`buttons[${i}].id\` must not start or end with spaces`);
      if (b.title.trim() === '')
        return refuse(`buttons[${i}].title`, `\`buttons[${i}].title\` must not be blank`);
    }
    for (const key of ['id', 'title'] as const) {
      const dup = firstDuplicate(body.buttons.map((b) => b[key]));
      if (dup) {
        return refuse(
          `buttons[${dup.index}].${key}`,
          `\`buttons[${dup.index}].${key}\` repeats \`buttons[${dup.earlier}].${key}\` (a duplicate); each button needs its own ${key}`,
        );
      }
    }
    return ok({ text: bodyText.value, buttons: body.buttons.map((b) => ({ id: b.id, title: b.title })) });
  },
  toCloud: (content) => ({
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: content.text },
      action: {
        buttons: content.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })),
      },
    },
  }),
};
