/**
 * What every send route shares: its operation's summary and body schema (src/domain/messages/), the one
 * answer shape, and the flag that makes a malformed body the contract's send 400 (docs/contract.md) (src/http/error-handler.ts).
 */
import type { TSchema } from 'typebox';
import { envelopeSchema, sendResultSchema } from '../../schemas.ts';

export function sendRouteOptions<Schema extends TSchema>(operation: { summary: string; bodySchema: Schema }) {
  return {
    config: { sendOperation: true },
    schema: {
      tags: ['messages'],
      summary: operation.summary,
      body: operation.bodySchema,
      response: { 200: envelopeSchema(sendResultSchema) },
    },
  };
}
