/** `POST /api/v1/webhooks`: a new endpoint; its signing secret is in this answer (and readable later). */
import { Type } from 'typebox';
import { eventTypes } from '../../../events/payloads.ts';
import { generateWebhookSecret } from '../../../events/signing.ts';
import { encryptSecret } from '../../../lib/sealed-secrets.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { checkUrl, EventTypeList, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

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
      const body = request.body;
      checkUrl(body.url, deps.allowPrivateUrls);
      const secret = generateWebhookSecret();
      const row = await deps.repo.createEndpoint(
        {
          account_id: request.accountId,
          url: body.url,
          events: JSON.stringify(body.events ?? eventTypes),
          secret_enc: encryptSecret(secret, deps.secretKey),
        },
        Date.now(),
      );
      return reply.code(201).send(success(view(row, secret)));
    },
  );
}
