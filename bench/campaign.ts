/**
 * A campaign of BENCH_CAMPAIGN_RECIPIENTS recipients (default 100,000; 0 skips it) at a throughput tier of
 * BENCH_CAMPAIGN_TIER sends per second (default 1,000): on one gateway node on SQLite, and on three nodes
 * sharing one PostgreSQL database. The network is a gateway process running only the simulator, which
 * enforces the same tier (a send past it is refused with 130429, as Meta's is) and, with
 * BENCH_CAMPAIGN_STATUSES=true, posts the three status webhooks of every message back. The audience is a
 * CSV file uploaded to the campaign. Reported: the seconds from the start to COMPLETED beside the ideal
 * (recipients ÷ tier), how many were sent and failed, and each node's peak RSS.
 */
import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPostgresSchema } from '../test/support/postgres.ts';
import { type GatewayProcess, runCli, spawnGateway } from '../test/support/process.ts';
import { freePort, peakRssMb } from './load.ts';
import { spawnNetwork } from './network-process.ts';

export interface CampaignResult {
  name: string;
  recipients: number;
  tier: number;
  seconds: number;
  idealSeconds: number;
  sent: number;
  failed: number;
  peakRssMb: (number | null)[];
}

const NUMBER = '+14155550123';
const SECRET_KEY = 'b'.repeat(64);
const BODY = 'Hello {{1}}, our winter sale has started: enjoy 20% off every coat in our shop until Sunday.';

type Api = (node: GatewayProcess, method: string, route: string, body?: unknown) => Promise<any>;

async function campaignOf(api: Api, node: GatewayProcess, rows: number, dir: string): Promise<string> {
  const template = await api(node, 'POST', `/api/v1/template/${NUMBER}`, {
    name: 'bench_sale',
    language: 'en_US',
    category: 'MARKETING',
    component: { body: { text: BODY, examples: ['Amina'] } },
  });
  if (!template.data) throw new Error(`template refused: ${JSON.stringify(template)}`);
  for (;;) {
    const list = await api(node, 'GET', `/api/v1/template/${NUMBER}?name=bench_sale`);
    if (list.data?.data?.[0]?.status === 'APPROVED') break;
    await sleep(200);
  }
  const created = await api(node, 'POST', '/api/v1/campaigns', {
    name: 'Bench sale',
    from: NUMBER,
    template: { name: 'bench_sale', language: 'en_US' },
    parameters: [{ field: 'name', fallback: 'there' }],
    audience: { csv: true },
  });
  const id = created.data.id as string;
  const file = path.join(dir, 'audience.csv');
  const lines = Array.from({ length: rows }, (_, i) => `+2547${String(10_000_000 + i)},Buyer ${i}`);
  writeFileSync(file, `phone,name\n${lines.join('\n')}\n`);
  const form = new FormData();
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'audience.csv');
  const key = (api as unknown as { key: string }).key;
  const uploaded = await fetch(`${node.url}/api/v1/campaigns/${id}/audience`, {
    method: 'POST',
    headers: { apiKey: key },
    body: form,
  });
  if (uploaded.status !== 200) throw new Error(`audience refused: ${await uploaded.text()}`);
  return id;
}

export async function campaignRun(
  target: 'sqlite' | 'postgres',
  nodeCount: number,
  recipients: number,
  tier: number,
  statuses: boolean,
): Promise<CampaignResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-campaign-'));
  const schema = target === 'postgres' ? await createPostgresSchema() : undefined;
  const networkPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dir,
    DATABASE_URL: schema?.url ?? `sqlite:${path.join(dir, 'bench.db')}`,
    SECRET_KEY,
    SEED_DEMO_ACCOUNT: 'false',
    RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'warn',
    GRAPH_BASE_URL: `http://127.0.0.1:${networkPort}/simulator`,
    NETWORK_MAX_SENDS_PER_SECOND: String(tier),
  };
  const nodes: GatewayProcess[] = [];
  let network: GatewayProcess | undefined;
  const networkDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-campaign-net-'));
  try {
    for (let i = 0; i < nodeCount; i++) {
      const nodeDir = path.join(dir, `node-${i}`);
      nodes.push(await spawnGateway({ ...env, DATA_DIR: nodeDir }));
    }
    network = await spawnNetwork({
      dataDir: networkDir,
      secretKey: SECRET_KEY,
      port: networkPort,
      webhookUrl: `${nodes[0]!.url}/webhooks/network`,
      env: {
        SIMULATOR_TEMPLATE_REVIEW_MS: '0',
        SIMULATOR_STATUS_WEBHOOKS: String(statuses),
        SIMULATOR_MAX_SENDS_PER_SECOND: String(tier),
      },
    });
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Bench', '--json'], env).stdout);
    runCli(['numbers', 'add', '--account', account.accountId, '--phone', NUMBER], env);
    runCli(
      [
        'numbers',
        'throughput',
        '--account',
        account.accountId,
        '--phone',
        NUMBER,
        '--per-second',
        String(tier),
      ],
      env,
    );
    const api: Api = Object.assign(
      async (node: GatewayProcess, method: string, route: string, body?: unknown): Promise<any> => {
        const r = await fetch(`${node.url}${route}`, {
          method,
          headers: { apiKey: account.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        return r.json();
      },
      { key: account.apiKey as string },
    );
    const id = await campaignOf(api, nodes[0]!, recipients, dir);
    const started = performance.now();
    await api(nodes[0]!, 'POST', `/api/v1/campaigns/${id}/start`);
    // The list answers without counts: polling it costs the nodes nothing that grows with the audience.
    for (;;) {
      const list = await api(nodes[0]!, 'GET', '/api/v1/campaigns?per_page=1');
      if (list.data.campaigns[0].status === 'COMPLETED') break;
      await sleep(250);
    }
    const seconds = (performance.now() - started) / 1000;
    const { counts } = (await api(nodes[0]!, 'GET', `/api/v1/campaigns/${id}`)).data;
    return {
      name: `campaign, ${target}, ${nodeCount} node${nodeCount > 1 ? 's' : ''}${statuses ? ', with status webhooks' : ''}`,
      recipients,
      tier,
      seconds: Math.round(seconds * 10) / 10,
      idealSeconds: Math.round((recipients / tier) * 10) / 10,
      sent: counts.sent,
      failed: counts.failed,
      peakRssMb: nodes.map((n) => peakRssMb(n.child.pid)),
    };
  } finally {
    for (const node of nodes) await node.stop();
    await network?.stop();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(networkDir, { recursive: true, force: true });
  }
}
