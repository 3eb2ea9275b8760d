/** Response schemas shared by routes: they document the wire shapes and make serialization fast. */
import { type TSchema, Type } from 'typebox';

export const timestampSchema = Type.Union([Type.String(), Type.Null()], {
  description: 'UTC, ISO 8601 with milliseconds and no zone suffix',
});

export function envelopeSchema(data: TSchema) {
  return Type.Object({
    timestamp: timestampSchema,
    data: Type.Union([data, Type.Null()]),
    status: Type.String({ enum: ['success', 'error'] }),
    message: Type.String(),
    errors: Type.Null(),
  });
}

export const sendResultSchema = Type.Object({
  messageId: Type.String(),
  waId: Type.String({ description: 'the network message id (wamid....)' }),
  status: Type.String({ enum: ['SENT'] }),
  statusDesc: Type.String(),
});
