/**
 * Events end to end with a real local receiver: what virtual users send and what happens to sent messages
 * arrives as signed `message.received` / `message.status` events that verify with the documented snippet.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { verifyAsDocumented } from '../support/documented-verify.ts';
import {
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { type Received, type Receiver, startReceiver } from '../support/receiver.ts';

const USER = '254712300001';

describe('webhook events', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;
  let endpoint: { id: string; secret: string };

  const verified = (r: Received) => verifyAsDocumented(endpoint.secret, r.headers, r.body);

  const eventWhere = (predicate: (json: any) => boolean) =>
    eventually(async () => receiver.received.find((r) => predicate(r.json)));

  /** The gateway's log at `info`, as an operator reads it. */
  const logged: string[] = [];

  before(async () => {
    t = await startGateway({
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
        LOG_LEVEL: 'info',
      },
      logStream: { write: (line) => void logged.push(line) },
    });
    receiver = await startReceiver();
    account = await createAccount(t, 'Hooked Co');
    const created = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.data.secret, /^whsec_/);
    assert.deepEqual(created.body.data.events, [
      'message.received',
      'message.status',
      'template.status',
      'template.category',
      'contact.opted_out',
      'contact.opted_in',
      'campaign.status',
      'campaign.completed',
    ]);
    endpoint = created.body.data;
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, {
      text: `join ${account.joinCode}`,
      profileName: 'Amina',
    });
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) ===
        account.accountId,
    );
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('a user text arrives as a signed message.received in the flat shape', async () => {
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { text: 'Hello business', profileName: 'Amina' });
    const r = await eventWhere((j) => j.type === 'message.received' && j.data.text === 'Hello business');
    assert.ok(verified(r), 'signature verifies');
    assert.match(String(r.headers['webhook-id']), /^evt_/);
    const { data } = r.json;
    assert.equal(data.type, 'TEXT');
    assert.equal(data.from, USER);
    assert.equal(data.to, DEFAULT_SANDBOX_NUMBER);
    assert.equal(data.profileName, 'Amina');
    assert.match(data.messageId, /^wamid\./);
  });

  test('button taps, list picks and locations arrive as message.received', async () => {
    const common = { from: DEFAULT_SANDBOX_NUMBER, to: USER };
    await call(t.url, 'POST', '/api/v1/msg/interactive/buttons', {
      key: account.apiKey,
      body: {
        ...common,
        messageId: 'b1',
        message: 'Confirm?',
        buttons: [
          { id: 'yes-1', title: 'Yes' },
          { id: 'no-1', title: 'No' },
        ],
      },
    });
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { reply: { id: 'yes-1' } });
    const tap = await eventWhere((j) => j.data?.interactive?.id === 'yes-1');
    assert.ok(verified(tap));
    assert.deepEqual(tap.json.data.interactive, { type: 'button_reply', id: 'yes-1', title: 'Yes' });
    assert.equal(tap.json.data.type, 'INTERACTIVE');
    assert.match(tap.json.data.context.messageId, /^wamid\./);

    await call(t.url, 'POST', '/api/v1/msg/interactive/list', {
      key: account.apiKey,
      body: {
        ...common,
        messageId: 'l1',
        body: 'Pick',
        buttons: [{ sectionItems: [{ id: 'row-a', title: 'Row A', description: 'first' }] }],
      },
    });
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { reply: { id: 'row-a' } });
    const pick = await eventWhere((j) => j.data?.interactive?.id === 'row-a');
    assert.equal(pick.json.data.interactive.type, 'list_reply');
    assert.equal(pick.json.data.interactive.title, 'Row A');

    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, {
      location: { latitude: -1.2921, longitude: 36.8219, name: 'Office' },
    });
    const loc = await eventWhere((j) => j.data?.type === 'LOCATION');
    assert.equal(loc.json.data.location.latitude, -1.2921);
    assert.equal(loc.json.data.location.name, 'Office');
  });

  test('a sent message produces message.status SENT, DELIVERED then READ', async () => {
    const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'status-1', from: DEFAULT_SANDBOX_NUMBER, to: USER, message: 'track me' },
    });
    assert.equal(sent.status, 200);
    const read = await eventWhere(
      (j) => j.type === 'message.status' && j.data.messageId === 'status-1' && j.data.status === 'READ',
    );
    assert.ok(verified(read));
    // Delivery order is not promised; the events themselves (ids sort by time) come in status order.
    // The network's statuses may arrive out of order too: a `delivered` behind `read` joins the message's
    // timeline but publishes no event (docs/webhooks.md), so the check waits for the timeline to be whole.
    await eventually(async () => {
      const s = await call(t.url, 'GET', '/api/v1/msg/message/status-1', { key: account.apiKey });
      return s.body.data?.timeline.length === 3;
    });
    const statuses = await eventually(async () => {
      const seen = receiver.received
        .filter((r) => r.json.type === 'message.status' && r.json.data.messageId === 'status-1')
        .sort((a, b) => String(a.headers['webhook-id']).localeCompare(String(b.headers['webhook-id'])))
        .map((r) => r.json.data.status);
      return seen.length >= 2 ? seen : undefined;
    });
    assert.ok(
      ['SENT,DELIVERED,READ', 'SENT,READ'].includes(statuses.join(',')),
      `events in status order, a late delivered left out: ${statuses.join(',')}`,
    );
    assert.equal(read.json.data.waId, sent.body.data.waId);
    assert.equal(read.json.data.to, USER);
    // What the network said of the status, as it said it, less the tag the gateway's send put there.
    const { network } = read.json.data;
    assert.equal(network.status, 'read');
    assert.equal(network.id, sent.body.data.waId);
    assert.equal(network.pricing.category, 'service');
    assert.equal(network.biz_opaque_callback_data, undefined);
  });

  test('a receiver that fails twice gets the event on the third attempt', async () => {
    receiver.failNext(2);
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { text: 'third time lucky' });
    const r = await eventWhere((j) => j.data?.text === 'third time lucky');
    assert.ok(verified(r));
    const deliveries = await call(
      t.url,
      'GET',
      `/api/v1/webhooks/${endpoint.id}/deliveries?status=succeeded`,
      { key: account.apiKey },
    );
    const delivery = deliveries.body.data.find(
      (d: { eventId: string }) => d.eventId === r.headers['webhook-id'],
    );
    assert.deepEqual(
      delivery.attempts.map((a: { statusCode: number }) => a.statusCode),
      [503, 503, 204],
    );
    // Each failed attempt is in the log too, for whoever runs the gateway; the URL is not.
    const failures = logged
      .map((line) => JSON.parse(line))
      .filter((e) => e.msg === 'webhook delivery attempt failed' && e.deliveryId === delivery.id);
    assert.deepEqual(
      failures.map((e) => [e.endpointId, e.attempt, e.statusCode]),
      [
        [endpoint.id, 1, 503],
        [endpoint.id, 2, 503],
      ],
    );
    assert.ok(!logged.some((line) => line.includes(receiver.url)), 'the URL is not logged');
    // And counted in /metrics, by outcome.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const counted = (outcome: string) =>
      Number(
        new RegExp(`^webhook_delivery_attempts_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(
          metrics,
        )?.[1],
      );
    assert.ok(counted('retry') >= 2, metrics);
    assert.ok(counted('succeeded') >= 1, metrics);
    assert.match(metrics, /^webhook_delivery_attempt_duration_seconds_count \d+$/m);
  });

  test('another account can neither see nor redeliver these deliveries', async () => {
    const other = await createAccount(t, 'Nosy Co');
    for (const [method, path] of [
      ['GET', `/api/v1/webhooks/${endpoint.id}`],
      ['GET', `/api/v1/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${endpoint.id}/deliveries/dlv_x/redeliver`],
      ['DELETE', `/api/v1/webhooks/${endpoint.id}`],
    ] as const) {
      const r = await call(t.url, method, path, { key: other.apiKey });
      assert.equal(r.status, 404, `${method} ${path}`);
    }
    assert.deepEqual((await call(t.url, 'GET', '/api/v1/webhooks', { key: other.apiKey })).body.data, []);
  });

  test('redeliver and replay send stored events again', async () => {
    const before = receiver.received.length;
    const list = await call(t.url, 'GET', `/api/v1/webhooks/${endpoint.id}/deliveries?limit=1`, {
      key: account.apiKey,
    });
    const id = list.body.data[0].id;
    const r = await call(t.url, 'POST', `/api/v1/webhooks/${endpoint.id}/deliveries/${id}/redeliver`, {
      key: account.apiKey,
    });
    assert.equal(r.status, 200);
    await eventually(async () => receiver.received.length > before);
    const replay = await call(t.url, 'POST', `/api/v1/webhooks/${endpoint.id}/replay`, {
      key: account.apiKey,
      body: { since: new Date(Date.now() - 60_000).toISOString() },
    });
    assert.ok(replay.body.data.queued >= 5);
  });

  test('a test event reaches an endpoint signed, whatever its types; a disabled one is refused', async () => {
    const other = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url, events: ['campaign.completed'] },
    });
    const { id, secret } = other.body.data as { id: string; secret: string };
    const sent = await call(t.url, 'POST', `/api/v1/webhooks/${id}/test`, { key: account.apiKey });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.match(sent.body.data.id, /^dlv_/);
    const r = await eventWhere((j) => j.type === 'webhook.test' && j.data?.endpointId === id);
    assert.ok(verifyAsDocumented(secret, r.headers, r.body), 'signed with the endpoint secret');
    const listed = await call(t.url, 'GET', `/api/v1/webhooks/${id}/deliveries`, { key: account.apiKey });
    assert.deepEqual(
      listed.body.data.map((d: { eventType: string }) => d.eventType),
      ['webhook.test'],
    );
    const nosy = await createAccount(t, 'Test Peeker Co');
    assert.equal(
      (await call(t.url, 'POST', `/api/v1/webhooks/${id}/test`, { key: nosy.apiKey })).status,
      404,
    );
    await call(t.url, 'PATCH', `/api/v1/webhooks/${id}`, { key: account.apiKey, body: { enabled: false } });
    const refused = await call(t.url, 'POST', `/api/v1/webhooks/${id}/test`, { key: account.apiKey });
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /is disabled: enable it to receive events, a test too/);
    await call(t.url, 'DELETE', `/api/v1/webhooks/${id}`, { key: account.apiKey });
  });

  test('a rotated secret signs beside the old one for a while', async () => {
    // Sent as many clients send every request: naming JSON, with no body. The operation reads none.
    const rotated = await call(t.url, 'POST', `/api/v1/webhooks/${endpoint.id}/rotate-secret`, {
      key: account.apiKey,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const oldSecret = endpoint.secret;
    const newSecret = rotated.body.data.secret as string;
    assert.notEqual(newSecret, oldSecret);
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { text: 'after rotation' });
    const r = await eventWhere((j) => j.data?.text === 'after rotation');
    assert.ok(verifyAsDocumented(oldSecret, r.headers, r.body));
    assert.ok(verifyAsDocumented(newSecret, r.headers, r.body));
    endpoint.secret = newSecret;
  });

  test('an operation that reads a body still says when it is empty', async () => {
    const r = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'the request body is empty; send a JSON object');
  });

  test('webhook URLs are validated', async () => {
    for (const [url, message] of [
      ['not a url', /`url` must be an absolute URL/],
      ['ftp://example.com/x', /`url` must start with https:\/\//],
      ['https://user:pw@example.com/x', /must not contain credentials/],
    ] as const) {
      const r = await call(t.url, 'POST', '/api/v1/webhooks', { key: account.apiKey, body: { url } });
      assert.equal(r.status, 400);
      assert.match(r.body.message, message);
    }
    const badType = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: 'https://example.com', events: ['message.nope'] },
    });
    assert.equal(badType.status, 400);
    assert.match(
      badType.body.message,
      /`events\[0\]` must be one of message.received, message.status, template.status/,
    );
  });
});
