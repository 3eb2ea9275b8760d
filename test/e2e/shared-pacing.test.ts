/**
 * One pace per business number across the cluster (docs/adr/0020-shared-send-pacing.md): three gateway
 * nodes on one PostgreSQL schema, a 50/s tier, and clients pushing far more than that through every node
 * at once. The network is a process of its own running the simulator, reached over HTTP as Meta is. What
 * the network saw is read from the virtual phones (the time the simulator accepted each message): the
 * nodes together send at most the tier over the run, near it (not a fraction of it), no one-second window
 * holds anything like the several tiers that nodes pacing apart would send, and no client is ever answered
 * the network's throughput error 130429.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { call, joinThroughSimulator, TEST_SECRET_KEY } from '../support/gateway.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, freePort, type GatewayProcess, spawnGateways } from '../support/process.ts';

const TIER = 50;
const USERS = ['254712388001', '254712388002', '254712388003', '254712388004', '254712388005'];
/**
 * Clients sending at once. A client that got a slot comes back only after waiting for it (up to the 1 s
 * allowed) and the answer's own way back, so keeping the tier busy takes tier × (1 s + that way back)
 * clients; twice the tier keeps the pressure on even when a busy machine makes the way back slow.
 */
const CLIENTS = 2 * TIER;
/** How long a refused client waits before it asks again: shorter than the answer's Retry-After. */
const REFUSED_PAUSE_MS = 500;
const SATURATION_MS = 3_000;

/** The most messages in any window [t, t + 1 s) that starts at one of them. */
function busiestSecond(times: number[]): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe('three nodes pace one number together', async () => {
  const skip = await postgresSkipReason();
  let schema: PostgresSchema;
  let dataDir: string;
  let store: Store;
  let nodes: GatewayProcess[] = [];
  let network: GatewayProcess | undefined;
  let networkDir: string;
  let account: { apiKey: string; joinCode: string; accountId: string };

  /** A virtual phone joins the sandbox through the network's simulator; the join is then on every node. */
  const join = (user: string) => joinThroughSimulator(network!.url, store.db, account, user);

  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-pacing-'));
    networkDir = mkdtempSync(path.join(tmpdir(), 'switchboard-pacing-network-'));
    // The network runs apart, as Meta does: a process of its own running only the simulator, which
    // counts what reaches it; the three nodes reach it over HTTP and its webhooks go to node A. Both
    // ports are chosen first, so that the four processes start side by side: this file runs alone, after
    // the others (test/run.ts), so the whole run waits while it starts.
    const networkPort = await freePort();
    const nodeAPort = await freePort();
    const env = {
      DATABASE_URL: schema.url,
      DATA_DIR: dataDir,
      SEED_DEMO_ACCOUNT: 'false',
      SECRET_KEY: TEST_SECRET_KEY,
      GRAPH_BASE_URL: `http://127.0.0.1:${networkPort}/simulator`,
      NETWORK_MAX_SENDS_PER_SECOND: String(TIER),
      NETWORK_MAX_PACING_WAIT_MS: '1000',
      RATE_LIMIT_PER_SECOND: '0',
    };
    const started = await spawnGateways([
      { ...env, PORT: String(nodeAPort) },
      env,
      env,
      {
        DATA_DIR: networkDir,
        SEED_DEMO_ACCOUNT: 'false',
        SECRET_KEY: TEST_SECRET_KEY,
        PORT: String(networkPort),
        SIMULATOR_WEBHOOK_URL: `http://127.0.0.1:${nodeAPort}/webhooks/network`,
        SIMULATOR_MAX_SENDS_PER_SECOND: String(TIER),
        // The pace of one number is under test, not the pace of one user, nor the status webhooks.
        SIMULATOR_PAIR_BURST: '0',
        SIMULATOR_STATUS_WEBHOOKS: 'false',
      },
    ]);
    network = started.pop();
    nodes = started;
    store = openStore(schema.url, { poolSize: 2 });
    const created = await cliInProcess(['accounts', 'create', '--name', 'Busy Co', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    account = JSON.parse(created.stdout);
    await Promise.all(USERS.map(join));
  });
  after(async () => {
    if (skip) return;
    await store?.close();
    await Promise.all([...nodes, ...(network ? [network] : [])].map((node) => node.stop()));
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(networkDir, { recursive: true, force: true });
  });

  test('under saturation the network sees at most the tier per second, and near it', {
    skip,
  }, async () => {
    // Warm-up, not measured: the first requests a node serves open its database connections and compile
    // its send path, which takes a busy small machine longer than a second; sends booked meanwhile would
    // all leave late, together. Real traffic meets warm nodes; the measure starts with warm ones too.
    await Promise.all(
      nodes.flatMap((node, i) =>
        Array.from({ length: 10 }, (_, w) =>
          call(node.url, 'POST', '/api/v1/msg/message/text', {
            key: account.apiKey,
            body: {
              messageId: `warm-${i}-${w}`,
              from: DEFAULT_SANDBOX_NUMBER,
              to: USERS[w % USERS.length],
              message: 'warm-up',
            },
          }),
        ),
      ),
    );
    const answers: { status: number; body: any }[] = [];
    const deadline = performance.now() + SATURATION_MS;
    let sent = 0;
    const client = async (c: number) => {
      // Clients arrive over the first second, as traffic does, rather than as one wall of connections.
      await new Promise((resolve) => setTimeout(resolve, (c * 1000) / CLIENTS));
      while (performance.now() < deadline) {
        const n = sent++;
        const answer = await call(nodes[n % nodes.length]!.url, 'POST', '/api/v1/msg/message/text', {
          key: account.apiKey,
          body: {
            messageId: `paced-${n}`,
            from: DEFAULT_SANDBOX_NUMBER,
            to: USERS[c % USERS.length],
            message: `paced ${n}`,
          },
        });
        answers.push(answer);
        // A refused send says when to come back; these clients come back sooner, to keep the pressure on.
        if (answer.status === 503) await new Promise((resolve) => setTimeout(resolve, REFUSED_PAUSE_MS));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

    const statuses = new Set(answers.map((a) => a.status));
    assert.deepEqual(
      [...statuses].filter((s) => s !== 200 && s !== 503),
      [],
      'only sent or paced',
    );
    assert.ok(statuses.has(503), 'the clients asked for more than the tier');
    for (const refused of answers.filter((a) => a.status === 503)) {
      assert.match(refused.body.message, /paced to 47 per second/);
      assert.doesNotMatch(JSON.stringify(refused.body), /130429/);
    }
    const accepted = answers.filter((a) => a.status === 200).length;

    const phones = await Promise.all(
      USERS.map(async (user) => (await call(network!.url, 'GET', `/simulator/users/${user}/messages`)).body),
    );
    const times = phones
      .flatMap((phone) => phone.messages)
      .filter((m: { rendered: string }) => m.rendered.startsWith('paced '))
      .map((m: { timestamp: string }) => Date.parse(m.timestamp))
      .sort((x: number, y: number) => x - y);
    assert.equal(times.length, accepted, 'every accepted send reached a phone once');
    const perSecond = ((times.length - 1) * 1000) / (times.at(-1)! - times[0]!);
    assert.ok(perSecond <= TIER, `${perSecond.toFixed(1)} sends per second over the whole run`);
    // The bounds below tell a shared pace from a broken one (nodes pacing apart send up to three times the
    // tier; a book that wastes slots sends a fraction of it) without depending on how smoothly this
    // machine schedules five busy processes: a node that stalls for a moment sends its booked slots late
    // and together, which takes from the run's rate and adds to one window. What the network enforces is
    // checked exactly above: it never refused a send (no 130429).
    assert.ok(perSecond >= 0.7 * TIER, `${perSecond.toFixed(1)} sends per second`);
    assert.ok(busiestSecond(times) <= TIER * 1.5, `${busiestSecond(times)} sends in one second`);
  });
});
