/** `POST /api/v1/webhooks/:id/test`: the endpoint is sent a test event, signed as any other. */
import { sendTestEvent } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerSendTest(app: TypedApp, deps: WebhookRouteDeps): void {
  app.post(
    '/api/v1/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Send the endpoint a test event (webhook.test)',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { deliveryId } = await sendTestEvent(deps, request.accountId, request.params.id);
      return reply.code(202).send(success({ id: deliveryId, status: 'pending' }));
    },
  );
}
