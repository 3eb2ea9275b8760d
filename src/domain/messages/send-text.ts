/** Operation 1: free-form text, `message` 1–4096 characters (decisions §3, reference §1.5). */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

type Body = CommonFields & { message: string };

export const sendText: SendOperation<Body, { message: string }> = {
  kind: 'text',
  path: '/api/v1/msg/message/text',
  summary: 'Send a free-form text message',
  bodySchema: Type.Object({ ...commonFields, message: text(1, 4096) }, { additionalProperties: false }),
  normalize: (body) => ok({ message: body.message }),
  // The network renders a preview of the first link only when asked; asking whenever there is one is
  // what a person sending a link expects.
  toCloud: ({ message }) => ({
    type: 'text',
    text: { body: message, preview_url: /https?:\/\/\S/.test(message) },
  }),
};
