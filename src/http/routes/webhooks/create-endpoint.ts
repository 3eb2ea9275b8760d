/** `POST /api/v1/webhooks`: a new endpoint; its signing secret is in this answer (and readable later). */
import { Type } from 'typebox';
import { createEndpoint } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { EventTypeList, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

const CreateBody = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2048 }), events: Type.Optional(EventTypeList) },
  { additionalProperties: false },
);

export function registerCreateEndpoint(app: TypedApp, deps: WebhookRouteDeps): void {
  app.post(
    '/api/v1/webhooks',
    {
      schema: { tags, summary: 'Create a webhook endpoint (the secret is in the answer)', body: CreateBody },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createEndpoint(deps, request.accountId, request.body);
      return reply.code(201).send(success(view(endpoint, secret)));
    },
  );
}
