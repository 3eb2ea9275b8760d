/**
 * Three gateway processes on one PostgreSQL schema behind a round-robin HTTP proxy written here, as a
 * load balancer would spread traffic. Node A hosts the simulator; B and C reach it over HTTP as they would
 * reach Meta, and the simulator's webhooks come back through the proxy, so any node may receive them.
 * Everything a client relies on must hold whichever node answers: sends stored and delivered once,
 * deduplication, sandbox sessions, webhook events exactly once, and one shared per-key rate limit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { call, eventually, joinThroughSimulator, TEST_SECRET_KEY } from '../support/gateway.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway, spawnGateways } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';
import { type RoundRobinProxy, startProxy } from '../support/round-robin-proxy.ts';

/** The per-key limit of this suite: small enough that one burst shows whether the nodes share it. */
const RATE = 2;
const BURST = 40;

interface CliAccount {
  accountId: string;
  apiKey: string;
  joinCode: string;
}

describe('three gateway nodes on one PostgreSQL behind a round-robin proxy', async () => {
  const skip = await postgresSkipReason();
  let schema: PostgresSchema;
  let dataDir: string;
  let env: Record<string, string>;
  let proxy: RoundRobinProxy;
  let nodes: GatewayProcess[] = [];
  let simulatorNode: GatewayProcess;
  let store: Store;

  const newAccount = async (name: string): Promise<CliAccount> => {
    const created = await cliInProcess(['accounts', 'create', '--name', name, '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    return JSON.parse(created.stdout) as CliAccount;
  };
  /** A virtual phone writes to the sandbox number (the simulator lives on node A only). */
  const join = (account: CliAccount, user: string) =>
    joinThroughSimulator(simulatorNode.url, store.db, account, user);
  const phoneOf = async (user: string) =>
    (await call(simulatorNode.url, 'GET', `/simulator/users/${user}/messages`)).body.messages as {
      id: string;
      rendered: string;
      direction?: string;
    }[];
  const sendText = (key: string, messageId: string, to: string, message: string) =>
    call(proxy.url, 'POST', '/api/v1/msg/message/text', {
      key,
      body: { messageId, from: DEFAULT_SANDBOX_NUMBER, to, message },
    });

  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-three-'));
    proxy = await startProxy();
    env = {
      DATABASE_URL: schema.url,
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      SEED_DEMO_ACCOUNT: 'false',
      SIMULATOR_STATUS_DELAY_MS: '50',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // Tests send bursts to one virtual user; the simulated network's per-user pace is not under test.
      SIMULATOR_PAIR_BURST: '0',
      RATE_LIMIT_PER_SECOND: String(RATE),
      RATE_LIMIT_BURST: String(BURST),
    };
    // The simulator posts its webhooks through the proxy: network callbacks reach any node.
    simulatorNode = await spawnGateway({ ...env, SIMULATOR_WEBHOOK_URL: `${proxy.url}/webhooks/network` });
    const reachingIt = { ...env, GRAPH_BASE_URL: `${simulatorNode.url}/simulator` };
    const others = await spawnGateways([reachingIt, reachingIt]);
    nodes = [simulatorNode, ...others];
    proxy.backends.push(...nodes.map((n) => n.url));
    store = openStore(schema.url, { poolSize: 2 });
  });
  after(async () => {
    if (skip) return;
    await store?.close();
    // The simulator's node too when the others failed to start, before it joined `nodes`.
    await Promise.all([...new Set([simulatorNode, ...nodes])].map((n) => n?.stop()));
    await proxy?.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('every node answers through the proxy', { skip }, async () => {
    proxy.served.clear();
    for (let i = 0; i < 3; i++) {
      const ready = await call(proxy.url, 'GET', '/readyz');
      assert.deepEqual(ready.body, { status: 'ready', database: 'postgres' });
    }
    assert.deepEqual(
      [...proxy.served.keys()].sort(),
      nodes.map((n) => n.url).sort(),
      'each of the three nodes served one request',
    );
  });

  test('concurrent sends through the proxy: all 200, each stored once and received once', {
    skip,
  }, async () => {
    const account = await newAccount('Spread Co');
    const user = '254712377001';
    await join(account, user);
    const ids = Array.from({ length: 30 }, (_, i) => `spread-${i}`);
    const answers = await Promise.all(ids.map((id) => sendText(account.apiKey, id, user, `hello ${id}!`)));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));

    const stored = await store.db
      .selectFrom('messages')
      .select(['client_message_id', 'wa_id'])
      .where('account_id', '=', account.accountId)
      .execute();
    assert.deepEqual(stored.map((m) => m.client_message_id).sort(), [...ids].sort());
    assert.deepEqual(
      new Set(stored.map((m) => m.wa_id)),
      new Set(answers.map((a) => a.body.data.waId)),
      'each stored message holds the network id its answer named',
    );
    const received = await eventually(async () => {
      const got = (await phoneOf(user)).filter((m) => /^hello spread-\d+!$/.test(m.rendered));
      return got.length >= ids.length && got;
    });
    assert.equal(received.length, ids.length, 'no message reached the phone twice');
    assert.deepEqual(new Set(received.map((m) => m.rendered)), new Set(ids.map((id) => `hello ${id}!`)));
  });

  test('a duplicate storm on one messageId makes one network send', { skip }, async () => {
    const account = await newAccount('Storm Co');
    const user = '254712377002';
    await join(account, user);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => sendText(account.apiKey, 'storm-1', user, 'only once')),
    );
    const ok = answers.filter((a) => a.status === 200);
    const inFlight = answers.filter((a) => a.status === 409);
    assert.equal(ok.length + inFlight.length, 30, JSON.stringify(answers.map((a) => a.status)));
    assert.ok(ok.length >= 1);
    assert.equal(new Set(ok.map((a) => a.body.data.waId)).size, 1);
    for (const answer of inFlight) assert.match(answer.body.message, /still in progress/);
    // A replay after the storm answers from the stored record, whichever node takes it.
    for (let i = 0; i < 3; i++) {
      const replay = await sendText(account.apiKey, 'storm-1', user, 'only once');
      assert.equal(replay.status, 200);
      assert.equal(replay.body.data.waId, ok[0]!.body.data.waId);
    }
    await eventually(async () => (await phoneOf(user)).some((m) => m.rendered === 'only once'));
    await new Promise((resolve) => setTimeout(resolve, 300)); // time for a second send to show up
    assert.equal((await phoneOf(user)).filter((m) => m.rendered === 'only once').length, 1);
  });

  test('a sandbox join through the simulator opens the session on every node', { skip }, async () => {
    const account = await newAccount('Session Co');
    const user = '254712377003';
    // Before joining, no node may send to the user.
    for (let i = 0; i < 3; i++) {
      const refused = await sendText(account.apiKey, `early-${i}`, user, 'too early');
      assert.ok(refused.status >= 400 && refused.status < 500, JSON.stringify(refused.body));
    }
    await join(account, user);
    proxy.served.clear();
    for (let i = 0; i < 3; i++) {
      const sent = await sendText(account.apiKey, `joined-${i}`, user, `after join ${i}`);
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    }
    assert.equal(proxy.served.size, 3, 'the three sends were answered by three different nodes');
    await eventually(
      async () => (await phoneOf(user)).filter((m) => m.rendered.startsWith('after join')).length === 3,
    );
  });

  test('each message.status event reaches the receiver exactly once', { skip }, async () => {
    const receiver = await startReceiver();
    try {
      const account = await newAccount('Events Co');
      const user = '254712377004';
      await join(account, user);
      const endpoint = await call(proxy.url, 'POST', '/api/v1/webhooks', {
        key: account.apiKey,
        body: { url: receiver.url, events: ['message.status'] },
      });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      const ids = Array.from({ length: 6 }, (_, i) => `event-${i}`);
      for (const id of ids) assert.equal((await sendText(account.apiKey, id, user, id)).status, 200);

      const expected = ids.flatMap((id) => ['SENT', 'DELIVERED', 'READ'].map((s) => `${id} ${s}`)).sort();
      const statusEvents = () =>
        receiver.received.filter(
          (r) => r.json?.type === 'message.status' && ids.includes(r.json.data.messageId),
        );
      await eventually(() => statusEvents().length >= expected.length).catch(async (e) => {
        // What is missing and where it stands, so that a failure says which step did not happen.
        const seen = new Set(statusEvents().map((r) => `${r.json.data.messageId} ${r.json.data.status}`));
        const state = {
          missing: expected.filter((x) => !seen.has(x)),
          messages: await store.db
            .selectFrom('messages')
            .select(['client_message_id', 'status'])
            .where('account_id', '=', account.accountId)
            .execute(),
          deliveries: await store.db
            .selectFrom('deliveries')
            .select(['status', 'attempt_count', 'next_attempt_at', 'locked_until', 'last_status_code'])
            .where('account_id', '=', account.accountId)
            .where('status', '!=', 'succeeded')
            .execute(),
          failedAttempts: await store.db
            .selectFrom('delivery_attempts as t')
            .innerJoin('deliveries as d', 'd.id', 't.delivery_id')
            .select(['t.attempted_at', 't.status_code', 't.latency_ms', 't.error'])
            .where('d.account_id', '=', account.accountId)
            .where((eb) => eb.or([eb('t.error', 'is not', null), eb('t.status_code', '>=', 300)]))
            .execute(),
          warnings: nodes.flatMap((n, i) => n.output.slice(-20).map((line) => `node ${i}: ${line}`)),
        };
        throw new Error(`${(e as Error).message}: ${JSON.stringify(state)}`);
      });
      await new Promise((resolve) => setTimeout(resolve, 500)); // time for any duplicate to show up
      const events = statusEvents();
      assert.deepEqual(events.map((r) => `${r.json.data.messageId} ${r.json.data.status}`).sort(), expected);
      const webhookIds = events.map((r) => String(r.headers['webhook-id']));
      assert.equal(new Set(webhookIds).size, webhookIds.length, 'no event was delivered twice');
    } finally {
      await receiver.close();
    }
  });

  test('the per-key rate limit is shared: a burst gets one limit of 429s, not three', { skip }, async () => {
    const account = await newAccount('Burst Co');
    const requests = 3 * BURST;
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: requests }, () =>
        call(proxy.url, 'GET', '/api/v1/msg/message/none', { key: account.apiKey }),
      ),
    );
    const elapsedSeconds = (Date.now() - started) / 1000;
    const allowed = answers.filter((a) => a.status === 404);
    const limited = answers.filter((a) => a.status === 429);
    assert.equal(allowed.length + limited.length, requests, JSON.stringify(answers.map((a) => a.status)));
    // One shared bucket: the burst, plus what refilled while the requests ran. Three separate buckets
    // would have let up to three bursts through.
    assert.ok(allowed.length >= BURST, `only ${allowed.length} allowed`);
    assert.ok(
      allowed.length <= BURST + Math.ceil(RATE * elapsedSeconds),
      `${allowed.length} allowed in ${elapsedSeconds} s: the nodes do not share the limit`,
    );
    for (const answer of limited) {
      assert.equal(answer.body.status, 'error');
      assert.match(answer.body.message, /too many requests with this API key/);
      assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
      assert.equal(answer.headers.get('ratelimit-limit'), String(BURST));
      assert.equal(answer.headers.get('ratelimit-remaining'), '0');
    }
    // Another key of another account is untouched by that burst.
    const other = await newAccount('Calm Co');
    assert.equal(
      (await call(proxy.url, 'GET', '/api/v1/msg/message/none', { key: other.apiKey })).status,
      404,
    );
  });
});
