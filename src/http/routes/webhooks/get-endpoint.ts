/** `GET /api/v1/webhooks/:id`: one endpoint with its signing secret. */
import { endpointSecret, ownedEndpoint } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerGetEndpoint(app: TypedApp, deps: WebhookRouteDeps): void {
  app.get(
    '/api/v1/webhooks/:id',
    { schema: { tags, summary: 'Read a webhook endpoint and its secret', params: IdParams } },
    async (request) => {
      const endpoint = await ownedEndpoint(deps, request.accountId, request.params.id);
      return success(view(endpoint, endpointSecret(deps, endpoint)));
    },
  );
}
