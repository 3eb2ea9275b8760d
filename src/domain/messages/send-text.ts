/** Operation 1: free-form text, `message` 1–4096 characters (docs/contract.md §3, docs/cloud-api.md §1.5). */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, type SendOperation, text } from './send-operation.ts';

type Body = CommonFields & { message: string };
export interface TextContent {
  message: string;
}

/** A link the network would preview: an http(s) scheme (any case, as people type it) followed by a host. */
const LINK = /https?:\/\/[^\s/]/i;

const bodySchema = Type.Object(
  { ...commonFields, message: text(1, 4096, { description: 'the text; a link in it is previewed' }) },
  { additionalProperties: false },
);

export const sendText: SendOperation<Body, TextContent, typeof bodySchema> = {
  kind: 'text',
  summary: 'Send a free-form text message',
  bodySchema,
  normalize: (body) => ok({ message: body.message }),
  // The network previews the first link only when asked (docs/cloud-api.md §1.3); asking whenever there is one is
  // what a person sending a link expects, and `false` otherwise keeps the body explicit.
  toCloud: ({ message }) => ({
    type: 'text',
    text: { body: message, preview_url: LINK.test(message) },
  }),
};
