import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { deriveSimulatorSecrets, withInstallSecrets } from '../../src/config/simulator-secrets.ts';

test('each install key gives its own simulator credentials, the same ones every time', () => {
  const one = randomBytes(32);
  const a = deriveSimulatorSecrets(one);
  const b = deriveSimulatorSecrets(randomBytes(32));
  assert.deepEqual(deriveSimulatorSecrets(Buffer.from(one)), a, 'stable for one key');
  for (const name of ['accessToken', 'appSecret', 'token'] as const) {
    assert.notEqual(a[name], b[name], `${name} differs between installs`);
    assert.match(a[name], /^[A-Za-z0-9_-]{43}$/, `${name} is 32 random-looking bytes`);
  }
  assert.equal(new Set(Object.values(a)).size, 3, 'one label each: no credential opens another door');
  assert.ok(!Object.values(a).includes('simulator-access-token'));
  assert.ok(!Object.values(a).includes('simulator-app-secret'));
});

test('the configuration gets the derived credentials; values from the environment win', () => {
  const key = randomBytes(32);
  const derived = deriveSimulatorSecrets(key);
  const c = withInstallSecrets(loadConfig({}), key);
  assert.equal(c.simulator.accessToken, derived.accessToken);
  assert.equal(c.sandbox.accessToken, derived.accessToken, 'the sandbox number sends with it');
  assert.equal(c.graph.appSecret, derived.appSecret);
  assert.equal(c.simulator.token, derived.token);
  assert.ok(Object.isFrozen(c) && Object.isFrozen(c.graph) && Object.isFrozen(c.simulator));

  const set = withInstallSecrets(
    loadConfig({
      SIMULATOR_ACCESS_TOKEN: 'access-from-env',
      NETWORK_APP_SECRET: 'secret-from-env',
      SIMULATOR_TOKEN: 'token-from-the-environment',
      SANDBOX_ACCESS_TOKEN: 'sandbox-from-env',
    }),
    key,
  );
  assert.equal(set.simulator.accessToken, 'access-from-env');
  assert.equal(set.graph.appSecret, 'secret-from-env');
  assert.equal(set.simulator.token, 'token-from-the-environment');
  assert.equal(set.sandbox.accessToken, 'sandbox-from-env');
});
