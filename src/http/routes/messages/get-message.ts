/** `GET /api/v1/msg/message/:messageId`: a sent message's status and timeline (docs/contract.md §3). */
import { Type } from 'typebox';
import { GatewayError } from '../../../domain/errors.ts';
import { describeMessage, messageStatuses } from '../../../domain/message-status.ts';
import type { MessagesStore } from '../../../domain/ports/messages.ts';
import { withOwnTemplateNames } from '../../../domain/templates/sandbox-names.ts';
import { success, wireTimestamp } from '../../envelope.ts';
import { envelopeSchema } from '../../schemas.ts';
import type { TypedApp } from '../../typed-app.ts';

const messageSchema = Type.Object({
  messageId: Type.String(),
  waId: Type.Union([Type.String(), Type.Null()]),
  type: Type.String(),
  from: Type.String(),
  to: Type.String(),
  status: Type.String({ enum: [...messageStatuses] }),
  statusDesc: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  timeline: Type.Array(
    Type.Object({ status: Type.String(), timestamp: Type.String(), error: Type.Optional(Type.Unknown()) }),
  ),
  error: Type.Optional(Type.Unknown()),
});

export function registerGetMessage(app: TypedApp, messages: MessagesStore): void {
  app.get(
    '/api/v1/msg/message/:messageId',
    {
      schema: {
        tags: ['messages'],
        summary: 'Status and timeline of a sent message',
        params: Type.Object({ messageId: Type.String({ minLength: 1, maxLength: 128 }) }),
        response: { 200: envelopeSchema(messageSchema) },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      const row = await messages.findByClientId(request.accountId, messageId);
      if (!row)
        throw new GatewayError('not_found', `no message with messageId "${messageId}" in this account`);
      const timeline = await messages.timeline(row.id);
      let latest = 0;
      const parseError = (e: string | null) => {
        if (!e) return undefined;
        // The network names a sandbox template by its tagged name; the account sees its own.
        const parsed = JSON.parse(withOwnTemplateNames(e, request.accountId)) as {
          network?: unknown;
          message?: string;
        };
        return parsed.network ?? parsed;
      };
      return success({
        messageId: row.clientMessageId,
        waId: row.waId,
        type: row.kind,
        from: row.fromPhone,
        to: row.toPhone,
        status: row.status,
        statusDesc: describeMessage(row),
        createdAt: new Date(row.createdAt).toISOString(),
        updatedAt: new Date(row.updatedAt).toISOString(),
        // The network reports times in whole seconds, so a DELIVERED can carry a time just before the
        // gateway's own (millisecond) SENT; times never go backwards along the timeline.
        timeline: timeline.map((e) => {
          latest = Math.max(latest, e.at);
          return {
            status: e.status,
            timestamp: wireTimestamp(latest),
            ...(e.error ? { error: parseError(e.error) } : {}),
          };
        }),
        ...(row.error ? { error: parseError(row.error) } : {}),
      });
    },
  );
}
