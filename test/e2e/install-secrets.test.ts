/**
 * The simulator's access token and app secret belong to the install: two installs (two DATA_DIRs) have
 * different ones, neither is the fixed string older versions used, and the network webhook refuses what
 * is signed with anything but the install's own secret.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { deriveSimulatorSecrets } from '../../src/config/simulator-secrets.ts';
import { loadOrCreateSecretKey } from '../../src/store/secret-key.ts';
import { call, createAccount, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { inboundTextEnvelope, signNetworkBody } from '../support/network-envelopes.ts';

describe('simulator credentials per install', () => {
  let one: TestGateway;
  let two: TestGateway;
  before(async () => {
    [one, two] = await Promise.all([startGateway(), startGateway()]);
  });
  after(async () => {
    await one.close();
    await two.close();
  });

  test('two installs have different access tokens and app secrets, none of them the old fixed ones', () => {
    const a = one.gateway.config;
    const b = two.gateway.config;
    assert.notEqual(a.simulator.accessToken, b.simulator.accessToken);
    assert.notEqual(a.graph.appSecret, b.graph.appSecret);
    assert.notEqual(a.simulator.token, b.simulator.token);
    for (const c of [a, b]) {
      assert.notEqual(c.simulator.accessToken, 'simulator-access-token');
      assert.notEqual(c.graph.appSecret, 'simulator-app-secret');
      assert.equal(c.sandbox.accessToken, c.simulator.accessToken, 'the sandbox number sends with it');
    }
  });

  test('they are kept with the secret key: the install derives the same ones again', () => {
    const again = deriveSimulatorSecrets(loadOrCreateSecretKey(null, one.dataDir));
    assert.equal(again.accessToken, one.gateway.config.simulator.accessToken);
    assert.equal(again.appSecret, one.gateway.config.graph.appSecret);
    assert.equal(again.token, one.gateway.config.simulator.token);
  });

  test("one install's access token is refused by the other's simulated Graph API", async () => {
    const path = `/simulator/v23.0/${DEFAULT_SANDBOX_NUMBER}`;
    const own = await call(one.url, 'GET', path, {
      headers: { authorization: `Bearer ${one.gateway.config.simulator.accessToken}` },
    });
    assert.equal(own.status, 200);
    const foreign = await call(two.url, 'GET', path, {
      headers: { authorization: `Bearer ${one.gateway.config.simulator.accessToken}` },
    });
    assert.equal(foreign.status, 401);
    assert.equal(foreign.body.error.code, 190);
  });

  test('a network webhook signed with the old default secret is refused; with the own secret it is taken', async () => {
    const account = await createAccount(one, 'Signed Co');
    const user = '254712399101';
    const raw = JSON.stringify(inboundTextEnvelope(user, 'wamid.OLDSECRET', `join ${account.joinCode}`));
    const post = (signature: string) =>
      fetch(`${one.url}/webhooks/network`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body: raw,
      });
    assert.equal((await post(signNetworkBody(raw, 'simulator-app-secret'))).status, 401);
    assert.equal((await post(signNetworkBody(raw, two.gateway.config.graph.appSecret))).status, 401);
    const stored = await one.gateway.store.db.selectFrom('inbound_messages').selectAll().execute();
    assert.equal(stored.length, 0);

    assert.equal((await post(signNetworkBody(raw, one.gateway.config.graph.appSecret))).status, 200);
    await eventually(
      async () =>
        (await one.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, user)) ===
        account.accountId,
    );
  });
});
