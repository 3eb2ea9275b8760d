/** `DELETE /api/v1/webhooks/:id`: deletes an endpoint and its delivery history. */
import { GatewayError } from '../../../domain/errors.ts';
import { deleteEndpoint } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerDeleteEndpoint(app: TypedApp, deps: WebhookRouteDeps): void {
  app.delete(
    '/api/v1/webhooks/:id',
    { schema: { tags, summary: 'Delete an endpoint and its delivery history', params: IdParams } },
    async (request) => {
      const { id } = request.params;
      if (!(await deleteEndpoint(deps, request.accountId, id))) {
        throw new GatewayError('not_found', `no webhook endpoint ${id} in this account`);
      }
      return success({ id, deleted: true });
    },
  );
}
