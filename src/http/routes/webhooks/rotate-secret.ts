/** `POST /api/v1/webhooks/:id/rotate-secret`: a new signing secret; the old one keeps signing a while. */

import { generateWebhookSecret } from '../../../events/signing.ts';
import { encryptSecret } from '../../../lib/sealed-secrets.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, ownedEndpoint, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

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
      const { id } = request.params;
      const row = await ownedEndpoint(deps.repo, request.accountId, id);
      const secret = generateWebhookSecret();
      const now = Date.now();
      await deps.repo.updateEndpointOfAccount(
        request.accountId,
        id,
        {
          secret_enc: encryptSecret(secret, deps.secretKey),
          previous_secret_enc: row.secret_enc,
          previous_secret_until: now + deps.rotationOverlapMs,
        },
        now,
      );
      return success({
        ...view(await ownedEndpoint(deps.repo, request.accountId, id), secret),
        previousSecretExpiresAt: new Date(now + deps.rotationOverlapMs).toISOString(),
      });
    },
  );
}
