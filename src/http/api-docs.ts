/**
 * The OpenAPI document, generated from the route schemas (one source for validation, types and docs); its
 * routes, `/openapi.json` and the `/docs` page, are in src/http/routes/docs/.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { completeDocument } from './api-reference/index.ts';

export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Switchboard API',
        version: '1.0.0',
        description:
          'Send WhatsApp messages, manage templates and flows, receive events. Every /api/v1 call needs the `apiKey` header.',
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'apiKey' } } },
      security: [{ apiKey: [] }],
    },
    // What only documents (operationIds, every answer, examples) is added here, never to the route schemas.
    transformObject: (document) =>
      'openapiObject' in document
        ? completeDocument(document.openapiObject, publicUrl)
        : document.swaggerObject,
  });
}
