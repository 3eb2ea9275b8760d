/** `POST /api/v1/webhooks/:id/rotate-secret`: a new signing secret; the old one keeps signing a while. */
import { rotateEndpointSecret } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerRotateSecret(app: TypedApp, deps: WebhookRouteDeps): void {
  app.post(
    '/api/v1/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'New signing secret; the old one keeps signing for 24 hours',
        params: IdParams,
      },
    },
    async (request) => {
      const rotated = await rotateEndpointSecret(deps, request.accountId, request.params.id);
      return success({
        ...view(rotated.endpoint, rotated.secret),
        previousSecretExpiresAt: new Date(rotated.previousUntil).toISOString(),
      });
    },
  );
}
