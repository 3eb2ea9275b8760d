/**
 * Several gateway nodes on one PostgreSQL behind a round-robin proxy (docs/scaling.md): for 1, 2 and 3
 * nodes, the full loop (each send brings three status webhooks, which the network posts through the
 * proxy, so any node takes them), aggregate throughput and p99 through the proxy. Every process — the
 * nodes, the network, the proxy, PostgreSQL and autocannon — shares this machine's cores, so the rows
 * show what one more node costs and gives on one machine; docs/scaling.md projects from them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_SANDBOX_NUMBER } from '../src/config/config.ts';
import { createPostgresSchema } from '../test/support/postgres.ts';
import { type GatewayProcess, runCli, spawnGateway } from '../test/support/process.ts';
import { freePort, joinSandbox, load, peakRssMb, type Result } from './load.ts';
import { spawnNetwork } from './network-process.ts';
import { settledLoop } from './settled-loop.ts';
import { analyzeSchema } from './statistics.ts';

const USER = '254712340001';
const SECRET_KEY = 'd'.repeat(64);

async function startProxyProcess(port: number, backends: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'round-robin-proxy.ts')], {
    env: { ...process.env, PORT: String(port), BACKENDS: backends.join(',') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('proxy listening')) resolve();
    });
  });
  return child;
}

/** One row: `count` nodes on a fresh schema behind the proxy on `proxyPort`, the network at `graphUrl`. */
async function clusterOf(
  count: number,
  connections: number,
  network: { url: string; proxyPort: number },
): Promise<Result> {
  const schema = await createPostgresSchema();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-cluster-'));
  const env = {
    DATABASE_URL: schema.url,
    DATA_DIR: dataDir,
    SECRET_KEY,
    SEED_DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'warn',
    NETWORK_MAX_SENDS_PER_SECOND: '0',
    RATE_LIMIT_PER_SECOND: '0',
  };
  const nodes: GatewayProcess[] = [];
  let proxy: ChildProcess | undefined;
  try {
    for (let i = 0; i < count; i++)
      nodes.push(await spawnGateway({ ...env, GRAPH_BASE_URL: `${network.url}/simulator` }));
    proxy = await startProxyProcess(
      network.proxyPort,
      nodes.map((n) => n.url),
    );
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Cluster', '--json'], env).stdout);
    await joinSandbox(
      network.url,
      account,
      USER,
      nodes.map((n) => n.url),
    );
    let sent = 0;
    const loadRow = () =>
      load(
        `${count} node${count > 1 ? 's' : ''} on postgres behind a proxy, with status webhooks`,
        `http://127.0.0.1:${network.proxyPort}/api/v1/msg/message/text`,
        undefined,
        { 'content-type': 'application/json', apiKey: account.apiKey },
        () =>
          JSON.stringify({
            messageId: `cluster-${count}-${sent++}`,
            from: DEFAULT_SANDBOX_NUMBER,
            to: USER,
            message: 'benchmark',
          }),
        connections,
        () => analyzeSchema(schema.url),
      );
    // Counted as the messages whose statuses were all applied (bench/settled-loop.ts).
    const row = await settledLoop(schema.url, loadRow);
    const rss = nodes.map((n) => peakRssMb(n.child.pid) ?? 0);
    return { ...row, peakRssMb: Math.max(...rss) };
  } finally {
    proxy?.kill();
    if (proxy) await once(proxy, 'exit');
    await Promise.all(nodes.map((n) => n.stop()));
    await schema.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A row per node count, each at `connections` through the proxy; peak RSS is the largest node's. */
export async function clusterRows(counts: number[], connections: number): Promise<Result[]> {
  const networkDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-cluster-net-'));
  const proxyPort = await freePort();
  // The network (a simulator-only process, as Meta is to the nodes) posts its webhooks to the proxy.
  const network = await spawnNetwork({
    dataDir: networkDir,
    secretKey: SECRET_KEY,
    webhookUrl: `http://127.0.0.1:${proxyPort}/webhooks/network`,
  });
  try {
    const rows: Result[] = [];
    for (const count of counts)
      rows.push(await clusterOf(count, connections, { url: network.url, proxyPort }));
    return rows;
  } finally {
    await network.stop();
    rmSync(networkDir, { recursive: true, force: true });
  }
}
