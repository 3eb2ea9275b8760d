/** `GET /api/v1/webhooks/:id/deliveries`: an endpoint's recent deliveries, newest first, with attempts. */
import { Type } from 'typebox';
import { listDeliveries } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ enum: ['pending', 'succeeded', 'failed'] })),
    limit: Type.Optional(
      Type.String({
        pattern: '^(100|[1-9][0-9]?)$',
        'x-rule': 'must be a whole number from 1 to 100',
      }),
    ),
  },
  { additionalProperties: false },
);

export function registerListDeliveries(app: TypedApp, deps: WebhookRouteDeps): void {
  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Recent deliveries of an endpoint, newest first, with their attempts',
        params: IdParams,
        querystring: DeliveriesQuery,
      },
    },
    async (request) => {
      const query = request.query;
      const deliveries = await listDeliveries(deps, request.accountId, request.params.id, {
        status: query.status,
        limit: Number(query.limit ?? 50),
      });
      return success(
        deliveries.map((d) => ({
          id: d.id,
          eventId: d.eventId,
          eventType: d.eventType,
          status: d.status,
          attempts: d.attempts.map((a) => ({
            at: new Date(a.at).toISOString(),
            statusCode: a.statusCode,
            latencyMs: a.latencyMs,
            responseBody: a.responseBody,
            error: a.error,
          })),
          nextAttemptAt: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
          createdAt: new Date(d.createdAt).toISOString(),
        })),
      );
    },
  );
}
