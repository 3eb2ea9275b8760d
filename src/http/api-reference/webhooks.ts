/** The reference of the webhook endpoint operations (docs/webhooks.md). */
import type { ReferenceTable } from './operation-reference.ts';
import { successBody } from './responses.ts';

const ID = 'whk_01m8a4f1ze2bx8hh5rqvxs6kx8';
const ENDPOINT = {
  id: ID,
  url: 'https://hooks.example.org/switchboard',
  events: ['message.received', 'message.status'],
  enabled: true,
  createdAt: '2026-11-25T18:06:41.902Z',
  updatedAt: '2026-11-25T18:06:41.902Z',
};
const SECRET = 'whsec_t39P1T9jJ+V4FmzKwVXDOimWdherGpAv';
const NOT_FOUND = `no webhook endpoint ${ID} in this account`;
const BAD_URL =
  '`url` must start with https:// (to allow http:// and private addresses, e.g. a receiver on this machine, set WEBHOOK_ALLOW_PRIVATE_URLS=true)';

export const WEBHOOK_REFERENCE: ReferenceTable = {
  'POST /api/v1/webhooks': {
    operationId: 'createWebhookEndpoint',
    description:
      "Registers an https endpoint for this account's events (all of them, or the `events` listed). Each event is POSTed, signed with the endpoint's `secret` (Standard Webhooks headers), and retried with backoff until it is answered 2xx.",
    success: {
      status: 201,
      description: 'Created: the answer holds the signing secret.',
      example: successBody({ ...ENDPOINT, secret: SECRET }),
    },
    errors: { 400: BAD_URL },
    requestExample: {
      url: 'https://hooks.example.org/switchboard',
      events: ['message.received', 'message.status'],
    },
  },
  'GET /api/v1/webhooks': {
    operationId: 'listWebhookEndpoints',
    description: "This account's webhook endpoints (without their secrets).",
    success: { status: 200, description: 'The endpoints.', example: successBody([ENDPOINT]) },
    errors: {},
  },
  'GET /api/v1/webhooks/{id}': {
    operationId: 'getWebhookEndpoint',
    description: 'One endpoint, with its signing secret.',
    success: {
      status: 200,
      description: 'The endpoint.',
      example: successBody({ ...ENDPOINT, secret: SECRET }),
    },
    errors: { 400: 'path parameter `id` must be at most 64 characters', 404: NOT_FOUND },
  },
  'PATCH /api/v1/webhooks/{id}': {
    operationId: 'updateWebhookEndpoint',
    description:
      'Changes the URL or the event types, or disables and enables the endpoint (a disabled one receives nothing; its events wait).',
    success: {
      status: 200,
      description: 'The endpoint as it now is.',
      example: successBody({ ...ENDPOINT, enabled: false }),
    },
    errors: { 400: BAD_URL, 404: NOT_FOUND },
    requestExample: { enabled: false },
  },
  'DELETE /api/v1/webhooks/{id}': {
    operationId: 'deleteWebhookEndpoint',
    description: 'Deletes the endpoint and its delivery history.',
    success: { status: 200, description: 'Deleted.', example: successBody({ id: ID, deleted: true }) },
    errors: { 400: 'path parameter `id` must be at most 64 characters', 404: NOT_FOUND },
  },
  'POST /api/v1/webhooks/{id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    description:
      'Gives the endpoint a new signing secret. For 24 hours every event is signed with both, so the receiver can switch over without losing one.',
    success: {
      status: 200,
      description: 'The endpoint with its new secret.',
      example: successBody({
        ...ENDPOINT,
        secret: 'whsec_ocnELqjnjcfsXlh1LHWX1NThyECzilce',
        previousSecretExpiresAt: '2026-11-26T18:06:41.914Z',
      }),
    },
    errors: { 400: 'path parameter `id` must be at most 64 characters', 404: NOT_FOUND },
  },
  'POST /api/v1/webhooks/{id}/test': {
    operationId: 'sendWebhookTest',
    description:
      'Sends the endpoint a test event (`webhook.test`), signed and retried as any other and listed with its deliveries, whatever event types the endpoint takes. Nothing happened: use it to check the URL and the signature.',
    success: {
      status: 202,
      description: 'The test event is queued for delivery.',
      example: successBody({ id: 'dlv_01m8a4f2b7m3q5sx0k1y6r9e2v', status: 'pending' }),
    },
    errors: {
      400: 'path parameter `id` must be at most 64 characters',
      404: NOT_FOUND,
      409: `webhook endpoint ${ID} is disabled: enable it to receive events, a test too`,
    },
  },
  'GET /api/v1/webhooks/{id}/deliveries': {
    operationId: 'listWebhookDeliveries',
    description:
      "The endpoint's recent deliveries, newest first, each with its attempts (status code, latency, the start of the answer).",
    success: {
      status: 200,
      description: 'The deliveries.',
      example: successBody([
        {
          id: 'dlv_01m8a4f2b7m3q5sx0k1y6r9e2v',
          eventId: 'evt_01m8a4f2b6c9k8d2x7n4p5w3z1',
          eventType: 'message.received',
          status: 'succeeded',
          attempts: [
            {
              at: '2026-11-25T18:06:42.101Z',
              statusCode: 200,
              latencyMs: 38,
              responseBody: 'ok',
              error: null,
            },
          ],
          nextAttemptAt: null,
          createdAt: '2026-11-25T18:06:42.090Z',
        },
      ]),
    },
    errors: { 400: 'query parameter `limit` must be a whole number from 1 to 100', 404: NOT_FOUND },
  },
  'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    operationId: 'redeliverWebhookDelivery',
    description: 'Attempts a delivery again now, whatever its state.',
    success: {
      status: 200,
      description: 'Queued.',
      example: successBody({ id: 'dlv_01m8a4f2b7m3q5sx0k1y6r9e2v', status: 'pending' }),
    },
    errors: {
      400: 'path parameter `deliveryId` must be at most 64 characters',
      404: `no delivery dlv_01m8a4f2b7m3q5sx0k1y6r9e2v of webhook endpoint ${ID} in this account`,
    },
  },
  'POST /api/v1/webhooks/{id}/replay': {
    operationId: 'replayWebhookEvents',
    description:
      "Delivers again every event of the endpoint's types since a time (at most 30 days back), as new deliveries, oldest first: at most 10,000 a call, and none for an event whose delivery to the endpoint is still pending.",
    success: {
      status: 200,
      description:
        'How many deliveries were queued, and `next`: the time to replay from to queue the rest (null when nothing is left).',
      example: successBody({ queued: 12, next: null }),
    },
    errors: { 400: '`since` must be a valid date-time', 404: NOT_FOUND },
    requestExample: { since: '2026-11-25T00:00:00Z' },
  },
};
