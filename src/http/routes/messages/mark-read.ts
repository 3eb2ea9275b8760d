/** `POST /api/v1/msg/read`: a read receipt for a received message, with an optional typing indicator (src/domain/mark-read.ts). */
import { Type } from 'typebox';
import { type MarkReadDeps, markRead } from '../../../domain/mark-read.ts';
import { success } from '../../envelope.ts';
import { envelopeSchema } from '../../schemas.ts';
import type { TypedApp } from '../../typed-app.ts';

const bodySchema = Type.Object(
  {
    from: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'the number the message was sent to: the sandbox number or your business number',
    }),
    messageId: Type.String({
      minLength: 1,
      maxLength: 256,
      description:
        'the network id (`wamid.…`) of the received message, as its `message.received` event named it',
    }),
    typing: Type.Optional(
      Type.Boolean({
        description: 'also show the user "typing…" until your next message (about 25 s at most)',
      }),
    ),
  },
  { additionalProperties: false },
);

const resultSchema = Type.Object({
  messageId: Type.String(),
  status: Type.Literal('READ'),
  typing: Type.Boolean(),
});

export function registerMarkRead(app: TypedApp, deps: MarkReadDeps): void {
  app.post(
    '/api/v1/msg/read',
    {
      schema: {
        tags: ['messages'],
        summary: 'Mark a received message as read, optionally showing a typing indicator',
        body: bodySchema,
        response: { 200: envelopeSchema(resultSchema) },
      },
    },
    async (request) => success(await markRead(deps, request.accountId, request.body)),
  );
}
