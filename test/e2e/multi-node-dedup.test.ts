/**
 * Deduplication across nodes: two gateway processes on one PostgreSQL database receive 50 concurrent
 * requests with one messageId; the network must see exactly one send. Gateway A hosts the simulator;
 * gateway B reaches it over HTTP as it would reach Meta.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openStore } from '../../src/store/connect.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { call, eventually, TEST_SECRET_KEY } from '../support/gateway.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const USER = '254712349999';

describe('two gateway nodes on one PostgreSQL', async () => {
  const skip = await postgresSkipReason();
  let schema: PostgresSchema;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let dataDir: string;
  let env: Record<string, string>;

  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-nodes-'));
    env = {
      DATABASE_URL: schema.url,
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      SEED_DEMO_ACCOUNT: 'false',
      SIMULATOR_STATUS_DELAY_MS: '50',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    };
    a = await spawnGateway(env);
    b = await spawnGateway({ ...env, GRAPH_BASE_URL: `${a.url}/simulator` });
  });
  after(async () => {
    if (skip) return;
    await Promise.all([a?.stop(), b?.stop()]);
    await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('50 concurrent requests with one messageId make exactly one network send', { skip }, async () => {
    const created = await cliInProcess(['accounts', 'create', '--name', 'Dedup Co', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const account = JSON.parse(created.stdout) as {
      accountId: string;
      apiKey: string;
      joinCode: string;
      sandboxNumber: string;
    };
    assert.deepEqual(Object.keys(account), ['accountId', 'apiKey', 'joinCode', 'sandboxNumber']);
    assert.equal(account.sandboxNumber, `+${DEFAULT_SANDBOX_NUMBER}`);

    await call(a.url, 'POST', `/simulator/users/${USER}/messages`, {
      body: { to: DEFAULT_SANDBOX_NUMBER, text: `join ${account.joinCode}` },
    });
    await eventually(
      async () => (await call(a.url, 'GET', `/simulator/users/${USER}/messages`)).body.messages.length > 0,
    );

    const body = { messageId: 'storm-1', from: DEFAULT_SANDBOX_NUMBER, to: USER, message: 'exactly once' };
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(i % 2 ? b.url : a.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const inFlight = responses.filter((r) => r.status === 409);
    assert.equal(ok.length + inFlight.length, 50, JSON.stringify(responses.map((r) => r.status)));
    assert.ok(ok.length >= 1);
    assert.equal(
      new Set(ok.map((r) => r.body.data.waId)).size,
      1,
      'every success names the same network message',
    );
    for (const r of inFlight) assert.match(r.body.message, /still in progress/);

    await new Promise((r) => setTimeout(r, 300));
    const phone = (await call(a.url, 'GET', `/simulator/users/${USER}/messages`)).body.messages as {
      rendered: string;
    }[];
    assert.equal(phone.filter((m) => m.rendered === 'exactly once').length, 1);

    // Both nodes read the same record afterwards.
    for (const node of [a, b]) {
      const status = await call(node.url, 'GET', '/api/v1/msg/message/storm-1', { key: account.apiKey });
      assert.equal(status.body.data.waId, ok[0]!.body.data.waId);
    }
  });

  test('a revoked key is refused at once by every node', { skip }, async () => {
    const created = JSON.parse(
      (await cliInProcess(['accounts', 'create', '--name', 'Revoke Co', '--json'], env)).stdout,
    );
    const listed = JSON.parse(
      (await cliInProcess(['keys', 'list', '--account', created.accountId, '--json'], env)).stdout,
    );
    assert.equal(listed.length, 1);
    assert.equal((await call(b.url, 'GET', '/api/v1/msg/message/x', { key: created.apiKey })).status, 404);
    const revoked = await cliInProcess(
      ['keys', 'revoke', '--account', created.accountId, '--key', listed[0].keyId],
      env,
    );
    assert.equal(revoked.status, 0, revoked.stderr);
    for (const node of [a, b]) {
      assert.equal(
        (await call(node.url, 'GET', '/api/v1/msg/message/x', { key: created.apiKey })).status,
        401,
      );
    }
  });

  test('500 events are delivered exactly once by two nodes sharing the work', { skip }, async () => {
    const receiver = await startReceiver();
    try {
      const account = JSON.parse(
        (await cliInProcess(['accounts', 'create', '--name', 'Events Co', '--json'], env)).stdout,
      );
      const created = await call(a.url, 'POST', '/api/v1/webhooks', {
        key: account.apiKey,
        body: { url: receiver.url },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const store = openStore(schema.url);
      try {
        for (let i = 0; i < 500; i += 50) {
          await store.db.transaction().execute(async (trx) => {
            for (let j = i; j < i + 50; j++)
              await insertEvent(trx, account.accountId, 'message.received', { n: j }, Date.now());
          });
        }
      } finally {
        await store.close();
      }
      await eventually(async () => receiver.received.length >= 500, 30_000);
      await new Promise((r) => setTimeout(r, 500)); // time for any duplicate to show up
      const ids = receiver.received.map((r) => String(r.headers['webhook-id']));
      assert.equal(ids.length, 500);
      assert.equal(new Set(ids).size, 500);
    } finally {
      await receiver.close();
    }
  });

  // The suite's last test: node B, its work done, is stopped as an operator would stop it (a process
  // started for this alone would cost about 0.9 s of CPU; test/run.ts).
  test('SIGTERM shuts a node down cleanly', { skip }, async () => {
    assert.equal((await call(b.url, 'GET', '/readyz')).body.database, 'postgres');
    assert.equal(await b.stop('SIGTERM'), 0);
  });
});
