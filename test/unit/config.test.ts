import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.ts';

test('defaults give an embedded gateway on the simulator', () => {
  const c = loadConfig({});
  assert.equal(c.port, 3000);
  // The simulator lets whoever reaches it read every virtual phone: by default only this machine can.
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.simulator.requireToken, false);
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
  assert.equal(c.mediaQuotaBytesPerAccount, 1024 * 1024 * 1024);
  assert.equal(loadConfig({ MEDIA_QUOTA_BYTES_PER_ACCOUNT: '5000000' }).mediaQuotaBytesPerAccount, 5_000_000);
  // Unknown outcomes wait five minutes for the network's status reports (docs/adr/0013).
  assert.equal(c.graph.unknownOutcomeMs, 300_000);
  // The API's body limit, and the network webhook's own, larger one (the network batches).
  assert.equal(c.bodyLimitBytes, 256 * 1024);
  assert.equal(c.networkWebhookBodyLimitBytes, 3 * 1024 * 1024);
  assert.equal(
    loadConfig({ NETWORK_WEBHOOK_BODY_LIMIT_BYTES: '5000000' }).networkWebhookBodyLimitBytes,
    5_000_000,
  );
});

test('links name the one address HOST names, which localhost would not reach; loopback and every interface stay localhost', () => {
  const linkOf = (HOST: string) =>
    loadConfig({ HOST, PORT: '3114', SIMULATOR_TOKEN: 'a-token-of-sixteen-chars' }).publicUrl;
  assert.equal(linkOf('127.0.0.2'), 'http://127.0.0.2:3114');
  assert.equal(linkOf('192.168.1.20'), 'http://192.168.1.20:3114');
  assert.equal(linkOf('fd00::5'), 'http://[fd00::5]:3114');
  for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', '[::1]', 'localhost'])
    assert.equal(linkOf(host), 'http://localhost:3114', host);
  assert.equal(
    loadConfig({ HOST: '127.0.0.2', PUBLIC_URL: 'https://chat.example' }).publicUrl,
    'https://chat.example',
  );
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
    [
      { NETWORK_UNKNOWN_OUTCOME_MS: '999' },
      /NETWORK_UNKNOWN_OUTCOME_MS must be an integer from 1000 to 86400000/,
    ],
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
    [{ MEDIA_QUOTA_BYTES_PER_ACCOUNT: '1GB' }, /MEDIA_QUOTA_BYTES_PER_ACCOUNT must be an integer from 0/],
    [{ MEDIA_QUOTA_BYTES_PER_ACCOUNT: '-1' }, /MEDIA_QUOTA_BYTES_PER_ACCOUNT must be an integer from 0/],
    [
      { NETWORK_WEBHOOK_BODY_LIMIT_BYTES: '1000' },
      /NETWORK_WEBHOOK_BODY_LIMIT_BYTES must be an integer from 65536 to 67108864/,
    ],
    [{ SIMULATOR_TOKEN: 'short' }, /SIMULATOR_TOKEN must be 16 to 256 letters, digits/],
    [{ SIMULATOR_TOKEN: 'has a space in it, quite long' }, /SIMULATOR_TOKEN must be 16 to 256/],
    [{ SANDBOX_JOIN_ATTEMPTS_PER_PHONE: '0' }, /SANDBOX_JOIN_ATTEMPTS_PER_PHONE must be an integer from 1/],
    [{ SANDBOX_JOIN_ATTEMPTS_PER_MINUTE: 'lots' }, /SANDBOX_JOIN_ATTEMPTS_PER_MINUTE must be an integer/],
    [{ RETENTION_DAYS: '3' }, /RETENTION_DAYS must be 0 \(keep everything\) or at least 7, got "3"/],
    [{ RETENTION_DAYS: '-1' }, /RETENTION_DAYS must be an integer from 0 to 36500/],
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL must be a URL such as smtp:\/\/user:password@/],
    [{ SMTP_URL: 'https://user:pw@mail.example.com' }, /^SMTP_URL must start with smtp:\/\/ \(STARTTLS/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  }
});

test('mail is off by default; SMTP_URL turns it on, from a sender on the public host unless MAIL_FROM says', () => {
  assert.equal(loadConfig({}).mail, null);
  const on = loadConfig({
    SMTP_URL: 'smtps://u:p@mail.example.com',
    PUBLIC_URL: 'https://gw.example.com',
  }).mail;
  assert.deepEqual(on, {
    smtpUrl: 'smtps://u:p@mail.example.com',
    from: 'Switchboard <no-reply@gw.example.com>',
  });
  const named = loadConfig({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'Team <t@shop.example>' }).mail;
  assert.equal(named?.from, 'Team <t@shop.example>');
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
  // The sandbox is the operator's own number there: nobody signs up unless SIGN_UP says so.
  assert.equal(c.signUpOpen, false);
});

test('sign-up is open with the simulator, and SIGN_UP opens or closes it', () => {
  assert.equal(loadConfig({}).signUpOpen, true);
  assert.equal(loadConfig({ SIGN_UP: 'closed' }).signUpOpen, false);
  assert.throws(() => loadConfig({ SIGN_UP: 'maybe' }), /SIGN_UP must be one of open, closed/);
});

test('request timeouts: defaults fit a 100 MB upload at about 7 Mbit/s, and their order is checked', () => {
  const c = loadConfig({});
  assert.deepEqual(c.http, {
    requestTimeoutMs: 120_000,
    headersTimeoutMs: 20_000,
    keepAliveTimeoutMs: 72_000,
    idleTimeoutMs: 300_000,
  });
  // A request timeout shorter than the default headers timeout takes the headers timeout down with it.
  assert.equal(loadConfig({ REQUEST_TIMEOUT_MS: '500' }).http.headersTimeoutMs, 500);
  const cases: [Record<string, string>, RegExp][] = [
    [{ REQUEST_TIMEOUT_MS: '0' }, /REQUEST_TIMEOUT_MS must be an integer from 100 to 3600000/],
    [
      { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' },
      /HEADERS_TIMEOUT_MS must be an integer from 100 to 1000/,
    ],
    [{ IDLE_TIMEOUT_MS: '5000' }, /IDLE_TIMEOUT_MS must be an integer from 20000 to 3600000/],
    [
      { IDLE_TIMEOUT_MS: '30000', NETWORK_TIMEOUT_MS: '30000' },
      /IDLE_TIMEOUT_MS must be longer than NETWORK_MAX_PACING_WAIT_MS \+ NETWORK_RETRY_BUDGET_MS \+ NETWORK_TIMEOUT_MS \(34000\)/,
    ],
    [{ KEEP_ALIVE_TIMEOUT_MS: 'forever' }, /KEEP_ALIVE_TIMEOUT_MS must be an integer/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && message.test(e.message),
    );
  }
});

test('cloud mode still listens on every interface by default', () => {
  const c = loadConfig({
    NETWORK: 'cloud',
    NETWORK_APP_SECRET: 's',
    SANDBOX_PHONE_NUMBER_ID: '123456',
    SANDBOX_ACCESS_TOKEN: 't',
  });
  assert.equal(c.host, '0.0.0.0');
});

test('the simulator needs its token when HOST reaches beyond this machine, or when one is set', () => {
  const cases: [Record<string, string>, boolean][] = [
    [{}, false],
    [{ HOST: '127.0.0.1' }, false],
    [{ HOST: '127.0.0.53' }, false],
    [{ HOST: 'localhost' }, false],
    [{ HOST: '::1' }, false],
    [{ HOST: '[::1]' }, false],
    [{ HOST: '::ffff:127.0.0.1' }, false],
    [{ HOST: '0.0.0.0' }, true],
    [{ HOST: '::' }, true],
    [{ HOST: '192.168.1.20' }, true],
    [{ HOST: '128.0.0.1' }, true],
    [{ HOST: 'switchboard.internal' }, true],
    // Behind a reverse proxy on loopback the operator asks for the token by setting one.
    [{ HOST: '127.0.0.1', SIMULATOR_TOKEN: 'a-long-enough-token-1234' }, true],
  ];
  for (const [env, expected] of cases) {
    assert.equal(loadConfig(env).simulator.requireToken, expected, JSON.stringify(env));
  }
  assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
});

test('simulator credentials the environment leaves unset are left to the install to derive', () => {
  const c = loadConfig({});
  assert.equal(c.simulator.accessToken, null);
  assert.equal(c.simulator.token, null);
  assert.equal(c.graph.appSecret, null);
  assert.equal(c.sandbox.accessToken, null);
  const set = loadConfig({
    SIMULATOR_ACCESS_TOKEN: 'access',
    NETWORK_APP_SECRET: 'secret',
    SIMULATOR_TOKEN: 'a-long-enough-token-1234',
  });
  assert.equal(set.simulator.accessToken, 'access');
  assert.equal(set.sandbox.accessToken, 'access');
  assert.equal(set.graph.appSecret, 'secret');
  assert.equal(set.simulator.token, 'a-long-enough-token-1234');
});

test('join attempts: five per phone and sixty a minute per sandbox unless configured', () => {
  assert.deepEqual(loadConfig({}).sandboxJoins, { perPhone: 5, perMinute: 60 });
  assert.deepEqual(
    loadConfig({ SANDBOX_JOIN_ATTEMPTS_PER_PHONE: '3', SANDBOX_JOIN_ATTEMPTS_PER_MINUTE: '600' })
      .sandboxJoins,
    { perPhone: 3, perMinute: 600 },
  );
});

test('webhook concurrency caps: defaults, and each cap at most the one above it', () => {
  assert.deepEqual(loadConfig({}).webhooks.concurrency, { total: 64, perAccount: 32, perEndpoint: 16 });
  // A small total lowers the defaults below it, so setting one variable is enough; one endpoint takes at
  // most half of its account's share.
  assert.deepEqual(loadConfig({ WEBHOOK_CONCURRENCY: '4' }).webhooks.concurrency, {
    total: 4,
    perAccount: 4,
    perEndpoint: 2,
  });
  assert.equal(loadConfig({ WEBHOOK_CONCURRENCY_PER_ACCOUNT: '1' }).webhooks.concurrency.perEndpoint, 1);
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
