/** `POST /api/v1/webhooks/:id/deliveries/:deliveryId/redeliver`: attempts one delivery again now. */
import { Type } from 'typebox';
import { GatewayError } from '../../../domain/errors.ts';
import { redeliver } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

const RedeliverParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});

export function registerRedeliver(app: TypedApp, deps: WebhookRouteDeps): void {
  app.post(
    '/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    { schema: { tags, summary: 'Attempt a delivery again now', params: RedeliverParams } },
    async (request) => {
      const { id, deliveryId } = request.params;
      if (!(await redeliver(deps, request.accountId, id, deliveryId))) {
        throw new GatewayError(
          'not_found',
          `no delivery ${deliveryId} of webhook endpoint ${id} in this account`,
        );
      }
      return success({ id: deliveryId, status: 'pending' });
    },
  );
}
