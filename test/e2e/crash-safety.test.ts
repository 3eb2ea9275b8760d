/**
 * Crash safety of the send path: a gateway process is SIGKILLed in the middle of a storm of concurrent
 * sends, then started again on the same database (a SQLite file; a PostgreSQL schema), in this test
 * process: only the killed gateway needs a process of its own, and a process start costs about 0.9 s of
 * CPU (test/run.ts). The network is a simulator in this test process, so it outlives the gateway and its
 * virtual phone is the record of what the network really received.
 *
 * Checked: every send answered 200 is stored with its network id and was received exactly once; nothing
 * was received twice; retrying every request with its messageId after the restart sends at most once
 * per messageId.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { type Harness, SECRET, startHarness, TOKEN } from '../simulator/harness.ts';
import {
  type ApiResponse,
  call,
  eventually,
  startGateway,
  TEST_SECRET_KEY,
  type TestGateway,
} from '../support/gateway.ts';
import { createPostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway } from '../support/process.ts';

const STORM = 200;
/** The gateway is killed once this many sends have been answered 200. */
const KILL_AFTER = 40;

/** What a request cut off by the kill looks like to its client. */
const CUT_OFF: ApiResponse = { status: 0, headers: new Headers(), body: null };

async function phoneTexts(h: Harness, user: string): Promise<{ id: string; rendered: string }[]> {
  const r = await fetch(`${h.base}/users/${user}/messages`);
  return ((await r.json()) as { messages: { id: string; rendered: string }[] }).messages;
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

async function stormThenKill(database: 'sqlite' | 'postgres', user: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-crash-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : undefined;
  let gatewayUrl = '';
  // The network: its webhooks (the user joining, statuses) go to whichever gateway runs now.
  const network = await startHarness({
    webhookUrl: () => `${gatewayUrl}/webhooks/network`,
    // Every message goes to one user: the pair limit would refuse most of the storm.
    pairBurst: 0,
  });
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SEED_DEMO_ACCOUNT: 'false',
    GRAPH_BASE_URL: network.base,
    SIMULATOR_ACCESS_TOKEN: TOKEN,
    NETWORK_APP_SECRET: SECRET,
    RATE_LIMIT_PER_SECOND: '0',
    ...(schema ? { DATABASE_URL: schema.url, SECRET_KEY: TEST_SECRET_KEY } : {}),
  };
  let gateway: GatewayProcess | undefined;
  let restarted: TestGateway | undefined;
  try {
    const created = await cliInProcess(['accounts', 'create', '--name', 'Crash Co', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { apiKey: string; joinCode: string };
    gateway = await spawnGateway(env);
    gatewayUrl = gateway.url;

    const joined = await fetch(`${network.base}/users/${user}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: DEFAULT_SANDBOX_NUMBER, text: `join ${account.joinCode}` }),
    });
    assert.equal(joined.status, 202);
    const send = (url: string, i: number) =>
      call(url, 'POST', '/api/v1/msg/message/text', {
        key: account.apiKey,
        body: { messageId: `storm-${i}`, from: DEFAULT_SANDBOX_NUMBER, to: user, message: `storm ${i}` },
      });
    // The join is recorded once a send to the user is allowed.
    await eventually(async () => (await send(gatewayUrl, -1)).status === 200);

    let succeeded = 0;
    let killed: Promise<unknown> | undefined;
    const running = gateway;
    const responses = await Promise.all(
      Array.from({ length: STORM }, (_, i) =>
        send(running.url, i).then(
          (r) => {
            if (r.status === 200 && ++succeeded === KILL_AFTER) killed = running.stop('SIGKILL');
            return r;
          },
          () => CUT_OFF,
        ),
      ),
    );
    assert.equal(await killed, null, 'the gateway died of SIGKILL');
    const ok = responses.flatMap((r, i) =>
      r.status === 200 ? [{ i, waId: r.body.data.waId as string }] : [],
    );
    const cutOff = responses.filter((r) => r === CUT_OFF).length;
    assert.ok(ok.length >= KILL_AFTER, `${ok.length} answered 200`);
    assert.ok(cutOff > 0, 'the kill came mid-storm: some requests were cut off');
    for (const r of responses) assert.ok([0, 200, 503].includes(r.status), `unexpected ${r.status}`);

    restarted = await startGateway({ env });
    const again = restarted;
    gatewayUrl = again.url;

    // Every 200 is stored with its network id, and the network received it exactly once.
    const before = countBy((await phoneTexts(network, user)).map((m) => m.rendered));
    for (const { i, waId } of ok) {
      const stored = await call(again.url, 'GET', `/api/v1/msg/message/storm-${i}`, {
        key: account.apiKey,
      });
      assert.equal(stored.status, 200, `storm-${i}: ${JSON.stringify(stored.body)}`);
      assert.equal(stored.body.data.waId, waId);
      assert.equal(before.get(`storm ${i}`), 1, `storm ${i} was received once`);
    }
    for (const [text, n] of before) assert.equal(n, 1, `${text} was received ${n} times`);
    const phoneIds = new Map((await phoneTexts(network, user)).map((m) => [m.rendered, m.id]));
    for (const { i, waId } of ok) assert.equal(phoneIds.get(`storm ${i}`), waId);

    // Every request again, with its messageId: at most one network send per messageId in all.
    const retries = await Promise.all(Array.from({ length: STORM }, (_, i) => send(again.url, i)));
    for (const { i, waId } of ok) {
      assert.equal(retries[i]!.status, 200, `storm-${i} replays its 200`);
      assert.equal(retries[i]!.body.data.waId, waId);
    }
    for (const r of retries) {
      // 409: a claim whose request died with the process (its outcome unknown) is never sent again.
      assert.ok([200, 409, 503].includes(r.status), `retry answered ${r.status}: ${JSON.stringify(r.body)}`);
    }
    const after = countBy((await phoneTexts(network, user)).map((m) => m.rendered));
    for (let i = 0; i < STORM; i++) {
      assert.ok(
        (after.get(`storm ${i}`) ?? 0) <= 1,
        `storm ${i} was received ${after.get(`storm ${i}`)} times`,
      );
      if (retries[i]!.status === 200)
        assert.equal(after.get(`storm ${i}`), 1, `storm ${i} answered 200 after the restart`);
    }
  } finally {
    if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null)
      await gateway.stop('SIGKILL');
    await restarted?.close();
    await network.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('crash safety of sends', async () => {
  const skipPostgres = await postgresSkipReason();

  test('SIGKILL mid-storm on SQLite: every 200 stored and received once, retries send at most once', async () => {
    await stormThenKill('sqlite', '254712300301');
  });

  test('SIGKILL mid-storm on PostgreSQL: the same guarantees', { skip: skipPostgres }, async () => {
    await stormThenKill('postgres', '254712300302');
  });
});
