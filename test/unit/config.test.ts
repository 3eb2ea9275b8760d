import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

test('defaults give an embedded gateway on the simulator', () => {
  const c = loadConfig({});
  assert.equal(c.port, 3000);
  assert.equal(c.host, '0.0.0.0');
  assert.match(c.databaseUrl, /^sqlite:.*data\/switchboard\.db$/);
  assert.equal(c.network, 'simulator');
  assert.equal(c.sandboxNumber, '14155550100');
  assert.equal(c.graph.baseUrl, null);
  assert.equal(c.publicUrl, 'http://localhost:3000');
  assert.ok(Object.isFrozen(c));
  // Meta's default throughput tier, paced by the gateway and enforced by the simulator.
  assert.equal(c.graph.maxSendsPerSecond, 80);
  assert.equal(c.simulator.maxSendsPerSecond, 80);
  assert.equal(c.graph.retryAttempts, 3);
});

test('bad values stop the boot with the variable named', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: '70000' }, /PORT must be an integer from 0 to 65535/],
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [
      { NETWORK_MAX_SENDS_PER_SECOND: '-1' },
      /NETWORK_MAX_SENDS_PER_SECOND must be an integer from 0 to 100000/,
    ],
    [{ NETWORK_RETRY_ATTEMPTS: '0' }, /NETWORK_RETRY_ATTEMPTS must be an integer from 1 to 10/],
    [{ SIMULATOR_PAIR_BURST: 'many' }, /SIMULATOR_PAIR_BURST must be an integer/],
    [{ NETWORK: 'carrier-pigeon' }, /NETWORK must be one of simulator, cloud/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with sqlite: or postgres:\/\//],
    [{ SANDBOX_NUMBER: '12' }, /SANDBOX_NUMBER must be a valid phone number/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must be an http\(s\) URL/],
    [
      { NETWORK: 'cloud' },
      /NETWORK=cloud needs NETWORK_APP_SECRET, SANDBOX_PHONE_NUMBER_ID, SANDBOX_ACCESS_TOKEN/,
    ],
    [{ DATABASE_URL: 'postgres://localhost/x' }, /SECRET_KEY is required with a PostgreSQL DATABASE_URL/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY must be 32 bytes/],
    [{ SEED_DEMO_ACCOUNT: 'maybe' }, /SEED_DEMO_ACCOUNT must be true or false/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  }
});

test('cloud mode takes its credentials from the environment', () => {
  const c = loadConfig({
    NETWORK: 'cloud',
    NETWORK_APP_SECRET: 's',
    SANDBOX_PHONE_NUMBER_ID: '123456',
    SANDBOX_ACCESS_TOKEN: 't',
    SANDBOX_NUMBER: '+1 415 555 0199',
  });
  assert.equal(c.graph.baseUrl, 'https://graph.facebook.com');
  assert.equal(c.sandbox.phoneNumberId, '123456');
  assert.equal(c.sandboxNumber, '14155550199');
});

test('webhook concurrency caps: defaults, and each cap at most the one above it', () => {
  assert.deepEqual(loadConfig({}).webhooks.concurrency, { total: 64, perAccount: 16, perEndpoint: 16 });
  // A small total lowers the defaults below it, so setting one variable is enough.
  assert.deepEqual(loadConfig({ WEBHOOK_CONCURRENCY: '4' }).webhooks.concurrency, {
    total: 4,
    perAccount: 4,
    perEndpoint: 4,
  });
  const cases: [Record<string, string>, RegExp][] = [
    [{ WEBHOOK_CONCURRENCY: '0' }, /WEBHOOK_CONCURRENCY must be an integer from 1 to 10000/],
    [
      { WEBHOOK_CONCURRENCY: '10', WEBHOOK_CONCURRENCY_PER_ACCOUNT: '11' },
      /WEBHOOK_CONCURRENCY_PER_ACCOUNT must be an integer from 1 to 10, got "11"/,
    ],
    [
      { WEBHOOK_CONCURRENCY_PER_ACCOUNT: '8', WEBHOOK_CONCURRENCY_PER_ENDPOINT: '9' },
      /WEBHOOK_CONCURRENCY_PER_ENDPOINT must be an integer from 1 to 8, got "9"/,
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  }
});
