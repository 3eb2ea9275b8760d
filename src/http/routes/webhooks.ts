/**
 * Webhook endpoints of an account (issue: events): create, list, read, update, delete, rotate the signing
 * secret, list deliveries with their attempts, redeliver one, replay everything since a time.
 * Another account's endpoint or delivery is a 404, never a 403.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { GatewayError } from '../../domain/errors.ts';
import { eventTypes } from '../../events/payloads.ts';
import { generateWebhookSecret } from '../../events/signing.ts';
import { decryptSecret, encryptSecret } from '../../lib/sealed-secrets.ts';
import { webhookUrlProblem } from '../../lib/url-guard.ts';
import type { EndpointRow, WebhooksRepo } from '../../store/webhooks-repo.ts';
import { success } from '../envelope.ts';

export interface WebhookRouteDeps {
  repo: WebhooksRepo;
  secretKey: Buffer;
  allowPrivateUrls: boolean;
  /** How long the previous secret keeps signing after a rotation. */
  rotationOverlapMs: number;
  wakeDispatcher(): void;
}

const EventTypeList = Type.Array(Type.String({ enum: [...eventTypes] }), {
  minItems: 1,
  maxItems: eventTypes.length,
  uniqueItems: true,
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const tags = ['webhooks'];

function view(row: EndpointRow, secret?: string) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.disabled_at === null,
    ...(secret ? { secret } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

function checkUrl(url: string, allowPrivate: boolean): void {
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new GatewayError('invalid_request', `\`url\` ${problem}`, { field: 'url' });
}

export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): void {
  const { repo } = deps;
  const owned = async (accountId: string, id: string) => {
    const row = await repo.findEndpointOfAccount(accountId, id);
    if (!row) throw new GatewayError('not_found', `no webhook endpoint ${id} in this account`);
    return row;
  };

  app.post(
    '/api/v1/webhooks',
    {
      schema: {
        tags,
        summary: 'Create a webhook endpoint (the secret is in the answer)',
        body: Type.Object(
          { url: Type.String({ minLength: 1, maxLength: 2048 }), events: Type.Optional(EventTypeList) },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const body = request.body as { url: string; events?: string[] };
      checkUrl(body.url, deps.allowPrivateUrls);
      const secret = generateWebhookSecret();
      const row = await repo.createEndpoint(
        {
          account_id: request.accountId,
          url: body.url,
          events: JSON.stringify(body.events ?? eventTypes),
          secret_enc: encryptSecret(secret, deps.secretKey),
        },
        Date.now(),
      );
      return reply.code(201).send(success(view(row, secret)));
    },
  );

  app.get('/api/v1/webhooks', { schema: { tags, summary: 'List webhook endpoints' } }, async (request) => {
    const rows = await repo.listEndpointsOfAccount(request.accountId);
    return success(rows.map((r) => view(r)));
  });

  app.get(
    '/api/v1/webhooks/:id',
    { schema: { tags, summary: 'Read a webhook endpoint and its secret', params: IdParams } },
    async (request) => {
      const row = await owned(request.accountId, (request.params as { id: string }).id);
      return success(view(row, decryptSecret(row.secret_enc, deps.secretKey)));
    },
  );

  app.patch(
    '/api/v1/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change the URL, the event types, or enable/disable an endpoint',
        params: IdParams,
        body: Type.Object(
          {
            url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
            events: Type.Optional(EventTypeList),
            enabled: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const body = request.body as { url?: string; events?: string[]; enabled?: boolean };
      await owned(request.accountId, id);
      if (body.url !== undefined) checkUrl(body.url, deps.allowPrivateUrls);
      const now = Date.now();
      await repo.updateEndpointOfAccount(
        request.accountId,
        id,
        {
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.events !== undefined ? { events: JSON.stringify(body.events) } : {}),
          // Re-enabling starts a fresh failure count, so the endpoint is not disabled again at once.
          ...(body.enabled === true ? { disabled_at: null, failing_since: null } : {}),
          ...(body.enabled === false ? { disabled_at: now } : {}),
        },
        now,
      );
      return success(view(await owned(request.accountId, id)));
    },
  );

  app.delete(
    '/api/v1/webhooks/:id',
    { schema: { tags, summary: 'Delete an endpoint and its delivery history', params: IdParams } },
    async (request) => {
      const { id } = request.params as { id: string };
      if (!(await repo.deleteEndpointOfAccount(request.accountId, id))) {
        throw new GatewayError('not_found', `no webhook endpoint ${id} in this account`);
      }
      return success({ id, deleted: true });
    },
  );

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
      const { id } = request.params as { id: string };
      const row = await owned(request.accountId, id);
      const secret = generateWebhookSecret();
      const now = Date.now();
      await repo.updateEndpointOfAccount(
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
        ...view(await owned(request.accountId, id), secret),
        previousSecretExpiresAt: new Date(now + deps.rotationOverlapMs).toISOString(),
      });
    },
  );

  app.get(
    '/api/v1/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Recent deliveries of an endpoint, newest first, with their attempts',
        params: IdParams,
        querystring: Type.Object(
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
        ),
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const query = request.query as { status?: string; limit?: string };
      await owned(request.accountId, id);
      const deliveries = await repo.listDeliveriesOfEndpoint(
        request.accountId,
        id,
        query.status,
        Number(query.limit ?? 50),
      );
      const attempts = await repo.attemptsOf(deliveries.map((d) => d.id));
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

  app.post(
    '/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: 'Attempt a delivery again now',
        params: Type.Object({
          id: Type.String({ maxLength: 64 }),
          deliveryId: Type.String({ maxLength: 64 }),
        }),
      },
    },
    async (request) => {
      const { id, deliveryId } = request.params as { id: string; deliveryId: string };
      if (!(await repo.redeliverOfAccount(request.accountId, id, deliveryId, Date.now()))) {
        throw new GatewayError(
          'not_found',
          `no delivery ${deliveryId} of webhook endpoint ${id} in this account`,
        );
      }
      deps.wakeDispatcher();
      return success({ id: deliveryId, status: 'pending' });
    },
  );

  app.post(
    '/api/v1/webhooks/:id/replay',
    {
      schema: {
        tags,
        summary: 'Deliver again every event since a time',
        params: IdParams,
        body: Type.Object({ since: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const since = Date.parse((request.body as { since: string }).since);
      const row = await owned(request.accountId, id);
      const queued = await repo.replaySinceOfAccount(request.accountId, row, since, Date.now());
      deps.wakeDispatcher();
      return success({ queued });
    },
  );
}
