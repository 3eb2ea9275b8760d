/**
 * The dashboard (docs/portal.md, "Dashboard") after a scripted mix of sends, a failure and replies: its
 * totals equal the counts taken through the API (each message's status read back with its messageId), the
 * failure is grouped by its reason in words, a number filter keeps only that number's messages, the
 * webhook deliveries are counted, a bad filter is a 400 naming its field, and another account sees none
 * of it. /app opens on it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  joinSandbox,
  portalAccount,
  startGateway,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const PASSWORD = 'a long enough password';
const OWN = '14155550177';
const FRIEND = '254712300961';
const STRANGER = '254712300962';

/** A tile's figure on the page: `<dt>Sent</dt><dd>4`. */
const tile = (html: string, label: string) =>
  Number(new RegExp(`<dt>${label}</dt><dd>(\\d+)`).exec(html)?.[1]);

describe('the dashboard', () => {
  let t: TestGateway;
  let receiver: Receiver;
  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('its figures equal the counts taken through the API, by number, with failures in words', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('dash@example.org', PASSWORD, 'Dash Co');
    const account = await portalAccount(t, 'dash@example.org');
    const key = account.apiKey;
    // An own number whose window the gateway does not judge: a text to someone who never wrote goes out,
    // and the network fails it (131047), as Meta does.
    await addSimulatedNumber(t, account.accountId, OWN, { sessionCheck: false });
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['campaign.completed'] },
    });
    await joinSandbox(t, account, FRIEND);
    await userSays(t, FRIEND, `+${DEFAULT_SANDBOX_NUMBER}`, { text: 'Are you open today?' });
    const sends = [
      { messageId: 'dash-1', from: `+${DEFAULT_SANDBOX_NUMBER}`, to: `+${FRIEND}`, message: 'Yes, until 6' },
      { messageId: 'dash-2', from: `+${DEFAULT_SANDBOX_NUMBER}`, to: `+${FRIEND}`, message: 'See you' },
      { messageId: 'dash-3', from: `+${OWN}`, to: `+${STRANGER}`, message: 'Hello from our shop' },
    ];
    for (const body of sends)
      assert.equal((await call(t.url, 'POST', '/api/v1/msg/message/text', { key, body })).status, 200);
    await call(t.url, 'POST', `/api/v1/webhooks/${hook.body.data.id}/test`, { key });

    // Through the API: every message's status once the network has said its last word.
    const statuses = await eventually(async () => {
      const read = await Promise.all(
        sends.map(
          async (s) =>
            (await call(t.url, 'GET', `/api/v1/msg/message/${s.messageId}`, { key })).body.data.status,
        ),
      );
      return read.every((s) => s === 'READ' || s === 'FAILED') ? read : undefined;
    });
    assert.deepEqual(statuses, ['READ', 'READ', 'FAILED']);
    const expected = {
      Sent: statuses.filter((s) => ['SENT', 'DELIVERED', 'READ'].includes(s)).length,
      Delivered: statuses.filter((s) => ['DELIVERED', 'READ'].includes(s)).length,
      Read: statuses.filter((s) => s === 'READ').length,
      Failed: statuses.filter((s) => s === 'FAILED').length,
      Received: 2, // the join message and the question
    };
    await eventually(async () =>
      (
        await t.gateway.repos.webhooks.listDeliveriesWithAttempts(
          account.accountId,
          hook.body.data.id,
          {},
          { offset: 0, limit: 5 },
        )
      ).deliveries.some((d) => d.status === 'succeeded'),
    );

    const opened = await client.get('/app');
    assert.equal(opened.location, '/app/dashboard');
    const page = await client.get('/app/dashboard');
    assert.equal(page.status, 200);
    for (const [label, n] of Object.entries(expected)) assert.equal(tile(page.html, label), n, label);
    assert.match(page.html, /\(100% of sent\)/);
    assert.match(
      page.html,
      /<td data-label="Reason">\(network error 131047[^<]*more than 24 hours passed[^<]*<\/td><td data-label="Messages">1<\/td>/,
    );
    assert.match(page.html, /1 succeeded, 0 failed, 0 waiting to be attempted again, of 1 made/);
    assert.match(
      page.html,
      /<desc id="days-desc">From \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: 2 sent and 2 received/,
    );

    const own = await client.get(`/app/dashboard?days=30&number=%2B${OWN}`);
    assert.equal(own.status, 200);
    assert.deepEqual(
      [tile(own.html, 'Sent'), tile(own.html, 'Failed'), tile(own.html, 'Received')],
      [0, 1, 0],
    );
    const bad = await client.get('/app/dashboard?days=12');
    assert.equal(bad.status, 400);
    assert.match(bad.html, /`days` must be one of 7, 30, 90/);
    assert.equal((await client.get('/app/dashboard?number=%2B447911123456')).status, 400);

    const other = await createAccount(t, 'Elsewhere Co');
    const stranger = new PortalClient(t.url);
    await stranger.signUp('dash-other@example.org', PASSWORD, other.accountId);
    const theirs = await stranger.get('/app/dashboard');
    assert.deepEqual(
      [tile(theirs.html, 'Sent'), tile(theirs.html, 'Failed'), tile(theirs.html, 'Received')],
      [0, 0, 0],
    );
  });
});
