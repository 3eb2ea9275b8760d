/**
 * The inbound webhook trusts nothing it cannot verify: Meta's handshake needs the verify token, and a POST
 * whose X-Hub-Signature-256 does not match the raw body is refused before it is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { call, createAccount, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { inboundTextEnvelope, signNetworkBody } from '../support/network-envelopes.ts';

async function post(t: TestGateway, raw: string, signature: string | undefined) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-hub-signature-256'] = signature;
  const r = await fetch(`${t.url}/webhooks/network`, { method: 'POST', headers, body: raw });
  return r.status;
}

describe('network webhook', () => {
  let t: TestGateway;
  // Signed as the network signs: with this install's app secret (src/config/simulator-secrets.ts).
  const sign = (raw: string) => signNetworkBody(raw, t.gateway.config.graph.appSecret);
  before(async () => {
    t = await startGateway();
  });
  after(() => t.close());

  test('the verification handshake echoes the challenge only for the right token', async () => {
    const ok = await fetch(
      `${t.url}/webhooks/network?hub.mode=subscribe&hub.verify_token=switchboard-verify-token&hub.challenge=1158201444`,
    );
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), '1158201444');
    const bad = await fetch(
      `${t.url}/webhooks/network?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`,
    );
    assert.equal(bad.status, 403);
  });

  test('a handshake with a repeated field is refused with a 403, never a 500', async () => {
    const base = `${t.url}/webhooks/network?hub.mode=subscribe&hub.verify_token=switchboard-verify-token`;
    for (const query of [
      '&hub.challenge=1&hub.challenge=2',
      '&hub.mode=subscribe&hub.challenge=1',
      '&hub.verify_token=switchboard-verify-token&hub.challenge=1',
    ]) {
      const r = await fetch(`${base}${query}`);
      assert.equal(r.status, 403, query);
      assert.equal(await r.text(), 'verification failed');
    }
  });

  test('unsigned, wrongly signed and re-serialised bodies are refused and nothing is stored', async () => {
    // Escaped unicode, as Meta sends it: re-serialising the parsed JSON would change these bytes.
    const raw = JSON.stringify(inboundTextEnvelope('254711111111', 'wamid.FORGED', 'hi')).replace(
      'Zoë',
      'Zo\\u00eb',
    );
    assert.equal(await post(t, raw, undefined), 401);
    assert.equal(await post(t, raw, 'sha256=00'), 401);
    assert.equal(await post(t, raw, sign(JSON.stringify(JSON.parse(raw)))), 401);
    const rows = await t.gateway.store.db.selectFrom('inbound_messages').selectAll().execute();
    assert.equal(rows.length, 0);
  });

  test('a correctly signed message is stored once, even when delivered twice', async () => {
    const account = await createAccount(t, 'Signed Co');
    const raw = JSON.stringify(
      inboundTextEnvelope('254711111112', 'wamid.SIGNED', `join ${account.joinCode}`),
    ).replace('Zoë', 'Zo\\u00eb');
    assert.equal(await post(t, raw, sign(raw)), 200);
    assert.equal(await post(t, raw, sign(raw)), 200);
    const rows = await t.gateway.store.db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('wa_id', '=', 'wamid.SIGNED')
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.profile_name, 'Zoë');
    assert.equal(rows[0]!.account_id, account.accountId);
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, '254711111112')) ===
        account.accountId,
    );
  });

  test('a signed body that is not JSON is a 400', async () => {
    assert.equal(await post(t, 'not json', sign('not json')), 400);
  });

  test('ops endpoints answer', async () => {
    assert.deepEqual((await call(t.url, 'GET', '/healthz')).body, { status: 'ok' });
    assert.deepEqual((await call(t.url, 'GET', '/readyz')).body, { status: 'ready', database: 'sqlite' });
    const metrics = await fetch(`${t.url}/metrics`);
    assert.match(await metrics.text(), /http_request_duration_seconds/);
    const openapi = (await call(t.url, 'GET', '/openapi.json')).body;
    assert.ok(openapi.paths['/api/v1/msg/message/text'].post);
    // The reference page itself is checked in a browser (reference-browser.test.ts).
    const docs = await fetch(`${t.url}/docs`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /<title>Switchboard API reference<\/title>/);
  });
});
