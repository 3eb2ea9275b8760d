/**
 * Operations 1–8 of the document: one route per send operation, each defined in src/domain/messages/
 * (schema, rules, Cloud API body) and all running the one send pipeline.
 */
import type { FastifyInstance } from 'fastify';
import { sendOperations } from '../../domain/messages/index.ts';
import { type CommonSendFields, type SendDeps, sendMessage } from '../../domain/send-message.ts';
import { success } from '../envelope.ts';
import { envelopeSchema, sendResultSchema } from '../schemas.ts';

export function registerSendRoutes(app: FastifyInstance, deps: SendDeps): void {
  for (const operation of sendOperations) {
    app.post(
      operation.path,
      {
        config: { sendOperation: true },
        schema: {
          tags: ['messages'],
          summary: operation.summary,
          body: operation.bodySchema,
          response: { 200: envelopeSchema(sendResultSchema) },
        },
      },
      async (request) => {
        const data = await sendMessage(
          deps,
          request.accountId,
          operation as never,
          request.body as CommonSendFields,
        );
        return success(data);
      },
    );
  }
}
