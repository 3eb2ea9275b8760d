/** `GET /api/v1/webhooks`: the account's endpoints, without their secrets. */
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerListEndpoints(app: TypedApp, deps: WebhookRouteDeps): void {
  app.get('/api/v1/webhooks', { schema: { tags, summary: 'List webhook endpoints' } }, async (request) => {
    const rows = await deps.repo.listEndpointsOfAccount(request.accountId);
    return success(rows.map((r) => view(r)));
  });
}
