/**
 * The webhook endpoint service (src/domain/webhook-endpoints.ts) the API and the portal share, over an
 * in-memory store: the URL rule, sealed secrets and their rotation, and scoping by account.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { GatewayError } from '../../src/domain/errors.ts';
import { eventTypes } from '../../src/domain/event-types.ts';
import {
  createEndpoint,
  deleteEndpoint,
  endpointSecret,
  endpointUrlProblem,
  listDeliveries,
  REPLAY_LIMIT,
  redeliver,
  replaySince,
  rotateEndpointSecret,
  updateEndpoint,
  type WebhookEndpointDeps,
} from '../../src/domain/webhook-endpoints.ts';
import { InMemoryWebhookEndpoints } from '../support/in-memory-ports.ts';

function service(now = 1_000_000) {
  const endpoints = new InMemoryWebhookEndpoints();
  let wakes = 0;
  const deps: WebhookEndpointDeps = {
    endpoints,
    secretKey: randomBytes(32),
    allowPrivateUrls: false,
    rotationOverlapMs: 60_000,
    wakeDispatcher: () => {
      wakes++;
    },
    now: () => now,
  };
  return { deps, endpoints, wakes: () => wakes };
}

const refusal = (field: string, message: RegExp) => (error: unknown) =>
  error instanceof GatewayError && error.field === field && message.test(error.message);

describe('webhook endpoint service', () => {
  test('a new endpoint gets every event type by default and a secret stored only sealed', async () => {
    const { deps, endpoints } = service();
    const { endpoint, secret } = await createEndpoint(deps, 'acc_a', { url: 'https://hooks.example.com/x' });
    assert.deepEqual(endpoint.events, [...eventTypes]);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.ok(!endpoints.endpoints[0]!.secretSealed.includes(secret.slice(6)), 'never stored in the clear');
    assert.equal(endpointSecret(deps, endpoint), secret);
    const named = await createEndpoint(deps, 'acc_a', {
      url: 'https://hooks.example.com/y',
      events: ['message.status', 'message.status'],
    });
    assert.deepEqual(named.endpoint.events, ['message.status']);
  });

  test('the URL rule refuses an empty, a plain-http or a private URL, naming `url`', async () => {
    const { deps, endpoints } = service();
    assert.equal(endpointUrlProblem(deps, ''), 'is required');
    assert.equal(endpointUrlProblem(deps, 'https://hooks.example.com/x'), null);
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.0.0.5/x']) {
      await assert.rejects(createEndpoint(deps, 'acc_a', { url }), refusal('url', /^`url` /));
    }
    assert.equal(endpoints.endpoints.length, 0);
    assert.equal(endpointUrlProblem({ ...deps, allowPrivateUrls: true }, 'https://127.0.0.1/x'), null);
  });

  test("another account's endpoint is the same 404 as none, for every operation", async () => {
    const { deps } = service();
    const { endpoint } = await createEndpoint(deps, 'acc_a', { url: 'https://hooks.example.com/x' });
    const isNotFound = (e: unknown) =>
      e instanceof GatewayError &&
      e.code === 'not_found' &&
      e.message === `no webhook endpoint ${endpoint.id} in this account`;
    await assert.rejects(updateEndpoint(deps, 'acc_b', endpoint.id, { enabled: false }), isNotFound);
    await assert.rejects(rotateEndpointSecret(deps, 'acc_b', endpoint.id), isNotFound);
    await assert.rejects(listDeliveries(deps, 'acc_b', endpoint.id, { limit: 5 }), isNotFound);
    await assert.rejects(replaySince(deps, 'acc_b', endpoint.id, 0), isNotFound);
    assert.equal(await deleteEndpoint(deps, 'acc_b', endpoint.id), false);
    assert.equal(await redeliver(deps, 'acc_b', endpoint.id, 'dlv_1'), false);
    assert.equal(await deleteEndpoint(deps, 'acc_a', endpoint.id), true);
  });

  test('an update checks the URL rule; re-enabling clears the failure count', async () => {
    const { deps, endpoints } = service();
    const { endpoint } = await createEndpoint(deps, 'acc_a', { url: 'https://hooks.example.com/x' });
    await assert.rejects(
      updateEndpoint(deps, 'acc_a', endpoint.id, { url: 'http://hooks.example.com/x' }),
      refusal('url', /^`url` /),
    );
    const disabled = await updateEndpoint(deps, 'acc_a', endpoint.id, { enabled: false });
    assert.equal(disabled.disabledAt, 1_000_000);
    endpoints.endpoints[0]!.failingSince = 5;
    const enabled = await updateEndpoint(deps, 'acc_a', endpoint.id, {
      enabled: true,
      events: ['message.status'],
    });
    assert.equal(enabled.disabledAt, null);
    assert.equal(enabled.failingSince, null);
    assert.deepEqual(enabled.events, ['message.status']);
    assert.equal(enabled.url, 'https://hooks.example.com/x');
  });

  test('a rotation keeps the previous secret signing for the overlap', async () => {
    const { deps } = service(2_000_000);
    const { endpoint, secret: first } = await createEndpoint(deps, 'acc_a', {
      url: 'https://hooks.example.com/x',
    });
    const rotated = await rotateEndpointSecret(deps, 'acc_a', endpoint.id);
    assert.notEqual(rotated.secret, first);
    assert.equal(endpointSecret(deps, rotated.endpoint), rotated.secret);
    assert.equal(rotated.endpoint.previousSecretSealed, endpoint.secretSealed);
    assert.equal(rotated.previousUntil, 2_060_000);
    assert.equal(rotated.endpoint.previousSecretUntil, 2_060_000);
  });

  test('a redelivery and a replay wake the dispatcher; a missing delivery does not', async () => {
    const { deps, endpoints, wakes } = service();
    const { endpoint } = await createEndpoint(deps, 'acc_a', {
      url: 'https://hooks.example.com/x',
      events: ['message.received'],
    });
    endpoints.deliveries.set('dlv_1', {
      id: 'dlv_1',
      accountId: 'acc_a',
      endpointId: endpoint.id,
      eventId: 'evt_1',
      eventType: 'message.received',
      payload: '{}',
      status: 'failed',
      nextAttemptAt: 0,
      createdAt: 0,
      attempts: [],
    });
    assert.equal(await redeliver(deps, 'acc_a', endpoint.id, 'dlv_missing'), false);
    assert.equal(wakes(), 0);
    assert.equal(await redeliver(deps, 'acc_a', endpoint.id, 'dlv_1'), true);
    assert.equal(endpoints.deliveries.get('dlv_1')?.status, 'pending');
    assert.equal(wakes(), 1);
    assert.deepEqual(await replaySince(deps, 'acc_a', endpoint.id, 42), { queued: 3, next: null });
    assert.deepEqual(endpoints.replays, [
      { endpointId: endpoint.id, events: ['message.received'], since: 42, limit: REPLAY_LIMIT },
    ]);
    assert.equal(wakes(), 2);
  });
});
