/** `GET /api/v1/webhooks/:id/deliveries`: an endpoint's recent deliveries, newest first, with attempts. */
import { Type } from 'typebox';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, ownedEndpoint, tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

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
      const { id } = request.params;
      const query = request.query;
      await ownedEndpoint(deps.repo, request.accountId, id);
      const deliveries = await deps.repo.listDeliveriesOfEndpoint(
        request.accountId,
        id,
        query.status,
        Number(query.limit ?? 50),
      );
      const attempts = await deps.repo.attemptsOf(deliveries.map((d) => d.id));
      return success(
        deliveries.map((d) => ({
          id: d.id,
          eventId: d.event_id,
          eventType: d.event_type,
          status: d.status,
          attempts: attempts
            .filter((a) => a.delivery_id === d.id)
            .map((a) => ({
              at: new Date(a.attempted_at).toISOString(),
              statusCode: a.status_code,
              latencyMs: a.latency_ms,
              responseBody: a.response_body,
              error: a.error,
            })),
          nextAttemptAt: d.status === 'pending' ? new Date(d.next_attempt_at).toISOString() : null,
          createdAt: new Date(d.created_at).toISOString(),
        })),
      );
    },
  );
}
