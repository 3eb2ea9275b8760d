/**
 * Pending webhook deliveries survive a SIGKILL: events are stored with the change they report, so a
 * gateway killed while its receiver is down delivers every event, byte for byte as stored, once it is
 * started again (in this test process: only the killed gateway needs a process of its own, and a process
 * start costs about 0.9 s of CPU; test/run.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openStore } from '../../src/store/connect.ts';
import { call, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { cliInProcess, spawnGateway } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-kill-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('deliveries pending at a SIGKILL are all delivered after a restart', async () => {
  const env = {
    DATA_DIR: dataDir,
    SEED_DEMO_ACCOUNT: 'false',
    SIMULATOR_STATUS_DELAY_MS: '20',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // Retries soon after the restart, and for longer than the waits below (50 × 2 s = 100 s against
    // eventually's 30 s): a delivery must still be pending when the gateway is killed, however slowly a
    // loaded machine got all 21 events in.
    WEBHOOK_RETRY_SCHEDULE: Array(50).fill('2s').join(','),
  };
  const account = JSON.parse(
    (await cliInProcess(['accounts', 'create', '--name', 'Durable Co', '--json'], env)).stdout,
  );

  // A receiver that is down: its port is known, nothing listens there yet.
  const probe = await startReceiver();
  const port = Number(new URL(probe.url).port);
  await probe.close();

  const gateway = await spawnGateway(env);
  try {
    const endpoint = await call(gateway.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: `http://127.0.0.1:${port}/hooks`, events: ['message.received'] },
    });
    assert.equal(endpoint.status, 201);
    const user = '254712300777';
    const say = (text: string) =>
      call(gateway.url, 'POST', `/simulator/users/${user}/messages`, {
        body: { to: DEFAULT_SANDBOX_NUMBER, text },
      });
    await say(`join ${account.joinCode}`);
    for (let i = 0; i < 20; i++) await say(`message ${i}`);

    const store = openStore(`sqlite:${path.join(dataDir, 'switchboard.db')}`);
    try {
      // Every event has its delivery, and none has left: the statuses say which part failed if not.
      const statuses = await eventually(async () => {
        const rows = await store.db.selectFrom('deliveries').select('status').execute();
        return rows.length >= 21 && rows.map((r) => r.status);
      });
      assert.deepEqual(statuses, Array(21).fill('pending'));
    } finally {
      await store.close();
    }
    assert.equal(await gateway.stop('SIGKILL'), null);
  } finally {
    // A step that failed must not leave the process running after the suite.
    await gateway.stop('SIGKILL');
  }

  const receiver = await startReceiver(port);
  let restarted: TestGateway | undefined;
  try {
    restarted = await startGateway({ env });
    await eventually(async () => receiver.received.length >= 21);
    const check = openStore(`sqlite:${path.join(dataDir, 'switchboard.db')}`);
    const events = await check.db.selectFrom('events').select(['id', 'payload']).execute();
    await check.close();
    assert.equal(events.length, 21);
    const byId = new Map(events.map((e) => [e.id, e.payload]));
    for (const r of receiver.received) assert.equal(r.body, byId.get(String(r.headers['webhook-id'])));
    const texts = receiver.received
      .map((r) => r.json.data.text)
      .filter((t: string) => t.startsWith('message '));
    assert.equal(new Set(texts).size, 20);
  } finally {
    await restarted?.close();
    await receiver.close();
  }
});
