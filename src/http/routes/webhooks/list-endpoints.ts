/** `GET /api/v1/webhooks`: the account's endpoints, without their secrets. */
import { listEndpoints } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerListEndpoints(app: TypedApp, deps: WebhookRouteDeps): void {
  app.get('/api/v1/webhooks', { schema: { tags, summary: 'List webhook endpoints' } }, async (request) => {
    const endpoints = await listEndpoints(deps, request.accountId);
    return success(endpoints.map((endpoint) => view(endpoint)));
  });
}
