/**
 * Campaigns survive kill -9 (docs/campaigns.md, ADR 0027): gateway processes are SIGKILLed in the middle
 * of a campaign, once the network has taken a few dozen of its messages. The network is a simulator in
 * this test process, so it outlives the gateways and its virtual phones are the record of what was
 * really delivered.
 *
 * - The only node (SQLite), killed, then started again on the same file: the campaign goes on where it
 *   stopped and completes.
 * - One of three nodes on one PostgreSQL schema, killed: the other two take over the recipients it held
 *   once its lease runs out, and complete the campaign.
 *
 * Only the killed gateways are processes of their own; the restarted node and the two that live run in
 * this test process (a process start costs about 0.9 s of CPU; test/run.ts).
 *
 * Checked on the phones: every recipient got the campaign's message exactly once; nobody who opted out
 * got it; the counts say the same.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { createSimulator } from '../../src/simulator/index.ts';
import { SECRET, TOKEN } from '../simulator/harness.ts';
import { call, eventually, startGateway, TEST_SECRET_KEY, type TestGateway } from '../support/gateway.ts';
import { createPostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const NUMBER = '14155550123';
const RECIPIENTS = 150;
/** The first node is killed once the network has taken this many of the campaign's messages. */
const KILL_AFTER = 40;
const OPTED_OUT = [4, 77, 131].map((i) => user(i));

function user(i: number): string {
  return `2547140${String(i).padStart(5, '0')}`;
}

/** The simulated network, counting the sends it accepted; its webhooks go to whichever node `target` names. */
async function startNetwork(target: () => string) {
  const simulator = createSimulator({
    accessToken: TOKEN,
    appSecret: SECRET,
    webhookUrl: () => `${target()}/webhooks/network`,
    statusDelayMs: 20,
    templateReviewDelayMs: 0,
    pairBurst: 0,
    maxSendsPerSecond: 0,
    phoneDefaultBusiness: NUMBER,
    // A status for a node that is down is tried again every quarter second for 30 s, so that it lands
    // soon after the node is back (the unknown-outcome window below counts on that).
    webhookRetryDelaysMs: Array.from({ length: 120 }, () => 250),
  });
  const app = Fastify();
  let accepted = 0;
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && request.url.endsWith('/messages') && reply.statusCode === 200)
      accepted++;
  });
  await app.register(simulator.plugin, { prefix: '/simulator' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `${url}/simulator`,
    accepted: () => accepted,
    async messagesOf(phone: string): Promise<string[]> {
      const r = await fetch(`${url}/simulator/users/${phone}/messages`);
      const { messages } = (await r.json()) as { messages: { from: string; rendered: string }[] };
      return messages.filter((m) => m.from === NUMBER).map((m) => m.rendered);
    },
    async userSays(phone: string, text: string) {
      const r = await fetch(`${url}/simulator/users/${phone}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: NUMBER, text }),
      });
      assert.equal(r.status, 202);
    },
    async close() {
      await simulator.close();
      await app.close();
    },
  };
}

type Network = Awaited<ReturnType<typeof startNetwork>>;

/** An account with the number, an approved marketing template, contacts with a tag, three opted out. */
async function prepare(env: Record<string, string>, network: Network, node: () => string) {
  const created = await cliInProcess(['accounts', 'create', '--name', 'Crash Sale Co', '--json'], env);
  assert.equal(created.status, 0, created.stderr);
  const { apiKey, accountId } = JSON.parse(created.stdout) as { apiKey: string; accountId: string };
  const added = await cliInProcess(['numbers', 'add', '--account', accountId, '--phone', `+${NUMBER}`], env);
  assert.equal(added.status, 0, added.stderr);
  const api = (method: string, route: string, body?: unknown) =>
    call(node(), method, route, { key: apiKey, ...(body !== undefined ? { body } : {}) });
  const receiver = await startReceiver();
  assert.equal(
    (await api('POST', '/api/v1/webhooks', { url: receiver.url, events: ['contact.opted_out'] })).status,
    201,
  );
  const template = await api('POST', `/api/v1/template/${NUMBER}`, {
    name: 'crash_sale',
    language: 'en_US',
    category: 'MARKETING',
    component: {
      body: {
        text: 'Hello {{1}}, the crash sale is on today: every coat in the shop is half price.',
        examples: ['Amina'],
      },
    },
  });
  assert.equal(template.status, 200, JSON.stringify(template.body));
  await eventually(
    async () =>
      (await api('GET', `/api/v1/template/${NUMBER}?name=crash_sale`)).body.data.data[0]?.status ===
      'APPROVED',
  );
  const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
    phone: `+${user(i)}`,
    name: `Buyer ${i}`,
    tags: ['crash'],
  }));
  assert.equal((await api('POST', '/api/v1/contacts', { contacts })).status, 200);
  for (const phone of OPTED_OUT) await network.userSays(phone, 'STOP');
  await eventually(
    () => receiver.received.filter((r) => r.json.type === 'contact.opted_out').length === OPTED_OUT.length,
  );
  await receiver.close();
  const campaign = await api('POST', '/api/v1/campaigns', {
    name: 'Crash sale',
    from: `+${NUMBER}`,
    template: { name: 'crash_sale', language: 'en_US' },
    parameters: [{ field: 'name', fallback: 'there' }],
    audience: { tags: ['crash'] },
  });
  assert.equal(campaign.status, 201, JSON.stringify(campaign.body));
  return { api, apiKey, id: campaign.body.data.id as string };
}

/** Every phone holds the message once (none for those who opted out), and the counts agree. */
async function assertEachOnce(network: Network, api: (m: string, r: string) => Promise<any>, id: string) {
  const done = await eventually(async () => {
    const c = (await api('GET', `/api/v1/campaigns/${id}`)).body.data;
    return c.status === 'COMPLETED' && c.counts.queued === 0 ? c : undefined;
  }, 90_000);
  for (let i = 0; i < RECIPIENTS; i++) {
    const texts = await network.messagesOf(user(i));
    const expected = OPTED_OUT.includes(user(i)) ? 0 : 1;
    assert.equal(texts.length, expected, `${user(i)} got ${texts.length} messages: ${texts.join(' | ')}`);
    if (expected) assert.match(texts[0]!, new RegExp(`^Hello Buyer ${i}, the crash sale`));
  }
  assert.equal(done.counts.sent, RECIPIENTS - OPTED_OUT.length, JSON.stringify(done.counts));
  assert.equal(done.counts.failed, 0);
  assert.equal(done.counts.skipped.opted_out, OPTED_OUT.length);
}

/**
 * Leases short enough that a node's death is noticed within seconds.
 *
 * A recipient whose send the killed node had begun is an unknown outcome from the moment another node
 * (or the restarted one) takes it over: the network may have taken the message. It is sent again (as
 * `<id>-r`) only once the window below has passed with no status for it. The window starts when a live
 * node is up, and the network retries each status every 250 ms until one takes it: a status for a message
 * the network did take lands well within 8 s, so a message it took is never sent twice. The cost is that
 * a message the network did not take waits those 8 s before its second send.
 */
const FAST = {
  SEED_DEMO_ACCOUNT: 'false',
  SIMULATOR_ACCESS_TOKEN: TOKEN,
  NETWORK_APP_SECRET: SECRET,
  RATE_LIMIT_PER_SECOND: '0',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  NETWORK_MAX_SENDS_PER_SECOND: '80',
  CAMPAIGN_LEASE_MS: '3000',
  NETWORK_UNKNOWN_OUTCOME_MS: '8000',
  // Three nodes beside the other suites' databases: within the test server's connections.
  DATABASE_POOL_SIZE: '5',
};

const pgSkip = await postgresSkipReason();

describe('campaigns survive kill -9', () => {
  test('the only node (SQLite) is killed mid-campaign and started again: each recipient once', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-campaign-crash-'));
    let node: GatewayProcess | undefined;
    let restarted: TestGateway | undefined;
    let url = 'http://127.0.0.1:9';
    const network = await startNetwork(() => url);
    const env = { ...FAST, DATA_DIR: dataDir, GRAPH_BASE_URL: network.base };
    try {
      node = await spawnGateway(env);
      url = node.url;
      const { api, id } = await prepare(env, network, () => url);
      const before = network.accepted();
      assert.equal((await api('POST', `/api/v1/campaigns/${id}/start`)).status, 200);
      await eventually(() => network.accepted() - before >= KILL_AFTER);
      assert.equal(await node.stop('SIGKILL'), null, 'the node died of SIGKILL');
      const atKill = network.accepted() - before;
      assert.ok(atKill < RECIPIENTS - OPTED_OUT.length, `killed mid-campaign (${atKill} sent)`);
      restarted = await startGateway({ env });
      url = restarted.url;
      await assertEachOnce(network, api, id);
    } finally {
      await node?.stop('SIGKILL');
      await restarted?.close();
      await network.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('one of three nodes on PostgreSQL is killed mid-campaign: the others finish it, each recipient once', {
    skip: pgSkip,
  }, async () => {
    const schema = await createPostgresSchema();
    const dataDirs: string[] = [];
    const living: TestGateway[] = [];
    let doomed: GatewayProcess | undefined;
    // The network's webhooks go to a node that lives.
    const network = await startNetwork(() => living[0]?.url ?? 'http://127.0.0.1:9');
    const envOf = () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-campaign-nodes-'));
      dataDirs.push(dataDir);
      return {
        ...FAST,
        DATA_DIR: dataDir,
        GRAPH_BASE_URL: network.base,
        DATABASE_URL: schema.url,
        SECRET_KEY: TEST_SECRET_KEY,
      };
    };
    try {
      for (let i = 0; i < 2; i++) living.push(await startGateway({ env: envOf() }));
      doomed = await spawnGateway(envOf());
      const { api, apiKey, id } = await prepare(envOf(), network, () => living[0]!.url);
      const before = network.accepted();
      // Started through the node that will die: its runner takes the first recipients at once.
      const start = await call(doomed.url, 'POST', `/api/v1/campaigns/${id}/start`, { key: apiKey });
      assert.equal(start.status, 200, JSON.stringify(start.body));
      await eventually(() => network.accepted() - before >= KILL_AFTER);
      assert.equal(await doomed.stop('SIGKILL'), null, 'the node died of SIGKILL');
      await assertEachOnce(network, api, id);
    } finally {
      await doomed?.stop('SIGKILL');
      for (const node of living) await node.close();
      await network.close();
      await schema.drop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
