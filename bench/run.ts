/**
 * `npm run bench`: send-text throughput against a joined sandbox user, on SQLite and on PostgreSQL, beside
 * a bare Fastify route measured in the same run. Reports requests/s, p50/p99 latency and the gateway's
 * peak RSS, and writes the report to bench/results/.
 *
 * Layout: the benchmarked gateway reaches the network over HTTP as it would reach Meta; the network is a
 * second gateway process running the simulator (which also posts the status webhooks back, as Meta does).
 * One more row measures the embedded default, the simulator inside the benchmarked gateway.
 *
 * The send path alone is measured at several concurrency levels (BENCH_CONNECTIONS); the full loop with status
 * webhooks at 50 connections. Each row's ratio is to the bare route at the same number of connections,
 * measured again just before each part of the run (`bare` below). The
 * gateway's start-up time (process start to listening, migrations on an empty database included) is
 * reported per database.
 *
 * Options (environment): BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default "1,10,50,200"),
 * BENCH_TARGETS (default "sqlite,postgres"), BENCH_CLUSTER (node counts of the cluster rows, default "1,2,3";
 * "" skips them), BENCH_LARGE_STORE (past messages of the large-store rows, default 5000000; 0 skips them),
 * BENCH_IMPORT_ROWS (rows of the contact import, default 1000000; 0 skips it), BENCH_CAMPAIGN_RECIPIENTS
 * (recipients of the campaign rows, default 100000; 0 skips them) and BENCH_CAMPAIGN_TIER (default 1000),
 * TEST_POSTGRES_URL, BENCH_PROFILE_DIR (write a V8 CPU profile of
 * the benchmarked gateway there, for `--cpu-prof` analysis).
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_SANDBOX_NUMBER } from '../src/config/config.ts';
import { createPostgresSchema, postgresReachable } from '../test/support/postgres.ts';
import { type GatewayProcess, runCli, spawnGateway } from '../test/support/process.ts';
import { type CampaignResult, campaignRun } from './campaign.ts';
import { clusterRows } from './cluster.ts';
import { type ImportResult, importRows } from './contacts-import.ts';
import { largeStoreRows } from './large-store.ts';
import { freePort, joinSandbox, load, type Result, SECONDS } from './load.ts';
import { spawnNetwork } from './network-process.ts';
import { profileOptions } from './profile.ts';
import { settledLoop } from './settled-loop.ts';
import { analyzeSchema } from './statistics.ts';
import { type WebhookResult, webhookThroughput } from './webhook-throughput.ts';

const LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,10,50,200').split(',').map(Number);
/** The full loop (with status webhooks) runs at this level only: it is the one the targets are set at. */
const FULL_LOOP_CONNECTIONS = 50;
const TARGETS = (process.env.BENCH_TARGETS ?? 'sqlite,postgres').split(',');
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const USER = '254712340000';
const SECRET_KEY = 'b'.repeat(64);

/** Process start to listening, per target, the bare route's beside the gateway's. */
const startupMs = new Map<string, number>();

/** The bare route's server: one process for the whole run, measured again before each part of it. */
async function startBare() {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const m = /Server listening at (\S+)/.exec(l);
      if (m) resolve(m[1]!);
    });
  });
  startupMs.set('bare Fastify route', Math.round(performance.now() - started));
  // A run that fails half-way must not leave it behind.
  const orphaned = () => child.kill();
  process.once('exit', orphaned);
  return {
    url,
    pid: child.pid,
    async stop() {
      process.off('exit', orphaned);
      child.kill();
      await once(child, 'exit');
    },
  };
}

const bareServer = await startBare();

/**
 * The bare route at each of `levels`. A machine shared with others changes speed over a run of a quarter
 * of an hour (the bare route did 45,600 and then 33,700 requests/s within forty minutes), so each part of
 * the run is measured beside the bare route measured just before it, and each row's ratio is to the
 * latest bare row at its number of connections (`ratio` below).
 */
async function bare(levels: number[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const connections of levels) {
    results.push(
      await load(
        'bare Fastify route',
        `${bareServer.url}/send`,
        bareServer.pid,
        { 'content-type': 'application/json' },
        (n) =>
          JSON.stringify({ messageId: `bare-${n}`, from: '14155550100', to: USER, message: 'benchmark' }),
        connections,
      ),
    );
  }
  return results;
}

/**
 * `network`: `process` puts the simulated network in a process of its own (bench/network-process.ts);
 * `embedded` is the gateway as `npm start` runs it, the simulator in the same process serving the sends
 * and posting the statuses back to it, its state kept in the gateway's database.
 */
async function gatewayOn(
  target: string,
  statuses: boolean,
  levels: number[],
  network: 'process' | 'embedded' = 'process',
): Promise<Result[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-'));
  const schema = target === 'postgres' ? await createPostgresSchema() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: schema?.url ?? `sqlite:${path.join(dataDir, 'bench.db')}`,
    SECRET_KEY,
    SEED_DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'info',
    SIMULATOR_STATUS_DELAY_MS: '200',
    NETWORK_MAX_SENDS_PER_SECOND: '0',
    RATE_LIMIT_PER_SECOND: '0',
    ...(network === 'embedded'
      ? {
          SIMULATOR_STATUS_WEBHOOKS: String(statuses),
          SIMULATOR_MAX_SENDS_PER_SECOND: '0',
          SIMULATOR_PAIR_BURST: '0',
        }
      : {}),
  };
  const networkDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-net-'));
  let networkProcess: GatewayProcess | undefined;
  let gateway: GatewayProcess | undefined;
  try {
    // The gateway does not call the network before the first send, so it can start first, pointed at the
    // port the network will take; the network then posts its webhooks to the gateway.
    const networkPort = await freePort();
    const profile = profileOptions();
    const started = performance.now();
    gateway = await spawnGateway({
      ...env,
      ...profile,
      ...(network === 'process' ? { GRAPH_BASE_URL: `http://127.0.0.1:${networkPort}/simulator` } : {}),
      LOG_LEVEL: 'warn',
    });
    if (!startupMs.has(target)) startupMs.set(target, Math.round(performance.now() - started));
    if (network === 'process') {
      networkProcess = await spawnNetwork({
        dataDir: networkDir,
        secretKey: SECRET_KEY,
        port: networkPort,
        webhookUrl: `${gateway.url}/webhooks/network`,
        env: { SIMULATOR_STATUS_WEBHOOKS: String(statuses) },
      });
    }
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Bench', '--json'], env).stdout);
    await joinSandbox((networkProcess ?? gateway).url, account, USER, [gateway.url]);
    const results: Result[] = [];
    let sent = 0;
    const where = network === 'embedded' ? 'embedded default (sqlite, simulator in process)' : target;
    const node = gateway;
    for (const connections of levels) {
      const row = () =>
        load(
          `gateway send-text, ${where}, ${statuses ? 'with status webhooks' : 'send path only'}`,
          `${node.url}/api/v1/msg/message/text`,
          node.child.pid,
          { 'content-type': 'application/json', apiKey: account.apiKey },
          () =>
            JSON.stringify({
              messageId: `bench-${sent++}`,
              from: DEFAULT_SANDBOX_NUMBER,
              to: USER,
              message: 'benchmark',
            }),
          connections,
          schema ? () => analyzeSchema(schema.url) : undefined,
        );
      // A full-loop row counts the messages whose statuses were all applied (bench/settled-loop.ts).
      results.push(await (statuses ? settledLoop(env.DATABASE_URL!, row) : row()));
    }
    return results;
  } finally {
    await gateway?.stop();
    await networkProcess?.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(networkDir, { recursive: true, force: true });
  }
}

const results: Result[] = [];
for (const target of TARGETS) {
  if (target === 'postgres' && !(await postgresReachable())) {
    process.stdout.write('PostgreSQL is not reachable: its benchmark is skipped\n');
    continue;
  }
  // The send path alone (the network answers, posts no statuses), then the whole loop: every send also
  // brings three status webhooks (sent, delivered, read) back into the gateway, as Meta's do.
  results.push(...(await bare([...new Set([...LEVELS, FULL_LOOP_CONNECTIONS])])));
  results.push(...(await gatewayOn(target, false, LEVELS)));
  results.push(...(await gatewayOn(target, true, [FULL_LOOP_CONNECTIONS])));
}
// The gateway as `npm start` runs it: SQLite, the simulator in the same process (its pacing and pair
// limits off, as in the rows above), the whole loop.
if (TARGETS.includes('sqlite')) {
  results.push(...(await bare([FULL_LOOP_CONNECTIONS])));
  results.push(...(await gatewayOn('sqlite', true, [FULL_LOOP_CONNECTIONS], 'embedded')));
}

// The send path on a store with BENCH_LARGE_STORE past messages (0 skips it), and while retention runs.
const LARGE_STORE = Number(process.env.BENCH_LARGE_STORE ?? 5_000_000);
const notes: string[] = [];
for (const target of LARGE_STORE > 0 ? TARGETS : []) {
  if (target === 'postgres' && !(await postgresReachable())) continue;
  const large = await largeStoreRows(
    target as 'sqlite' | 'postgres',
    LARGE_STORE,
    FULL_LOOP_CONNECTIONS,
    () => bare([FULL_LOOP_CONNECTIONS]),
  );
  results.push(...large.rows);
  notes.push(...large.notes);
}

// Several nodes on one PostgreSQL behind a proxy (BENCH_CLUSTER: node counts, "" to skip).
const CLUSTER = (process.env.BENCH_CLUSTER ?? '1,2,3').split(',').filter(Boolean).map(Number);
if (TARGETS.includes('postgres') && CLUSTER.length > 0 && (await postgresReachable())) {
  results.push(...(await bare([FULL_LOOP_CONNECTIONS])));
  results.push(...(await clusterRows(CLUSTER, FULL_LOOP_CONNECTIONS)));
}
await bareServer.stop();

// Webhook delivery of BENCH_WEBHOOK_EVENTS events per store (0 skips it: the receiver would wait for none).
const hooks: WebhookResult[] = [];
for (const target of WEBHOOK_EVENTS > 0 ? TARGETS : []) {
  if (target === 'postgres' && !(await postgresReachable())) continue;
  hooks.push(await webhookThroughput(target as 'sqlite' | 'postgres', WEBHOOK_EVENTS));
  // The same events delivered from a backlog: the delivery alone, without the writer beside it.
  hooks.push(await webhookThroughput(target as 'sqlite' | 'postgres', WEBHOOK_EVENTS, 'backlog'));
}

// A contact import of BENCH_IMPORT_ROWS rows per store (0 skips it).
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const imports: ImportResult[] = [];
for (const target of IMPORT_ROWS > 0 ? TARGETS : []) {
  if (target === 'postgres' && !(await postgresReachable())) continue;
  imports.push(await importRows(target as 'sqlite' | 'postgres', IMPORT_ROWS));
}

// A campaign of BENCH_CAMPAIGN_RECIPIENTS at a 1,000/s tier: one node on SQLite, three on PostgreSQL.
const CAMPAIGN_RECIPIENTS = Number(process.env.BENCH_CAMPAIGN_RECIPIENTS ?? 100_000);
const CAMPAIGN_TIER = Number(process.env.BENCH_CAMPAIGN_TIER ?? 1000);
const campaigns: CampaignResult[] = [];
for (const target of CAMPAIGN_RECIPIENTS > 0 ? TARGETS : []) {
  if (target === 'postgres' && !(await postgresReachable())) continue;
  const nodes = target === 'postgres' ? 3 : 1;
  campaigns.push(
    await campaignRun(target as 'sqlite' | 'postgres', nodes, CAMPAIGN_RECIPIENTS, CAMPAIGN_TIER, false),
  );
}

/** A row's ratio: to the latest bare row before it at the same number of connections. */
const ratio = (r: Result) => {
  if (r.name === 'bare Fastify route') return '1.00';
  const before = results.slice(0, results.indexOf(r));
  const base = before.findLast((b) => b.name === 'bare Fastify route' && b.connections === r.connections);
  return base ? (r.requestsPerSecond / base.requestsPerSecond).toFixed(2) : 'n/a';
};
const lines = [
  `# Benchmark ${new Date().toISOString()}`,
  '',
  `${SECONDS} s per row, after a 2 s warm-up; Node ${process.version}; ${process.platform} ${process.arch}. Peak RSS is the process's high-water mark up to the end of that row.`,
  '',
  '| target | connections | requests/s | ratio to bare | p50 ms | p99 ms | non-2xx | errors | peak RSS MB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${r.connections} | ${r.requestsPerSecond} | ${ratio(r)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${r.peakRssMb ?? 'n/a'} |`,
  ),
  '',
  ...results.flatMap((r) =>
    Object.entries(r.refusals ?? {}).map(([what, times]) => `- ${r.name}: ${times} × ${what}`),
  ),
  ...results.flatMap((r) =>
    r.settledAfterSeconds !== undefined
      ? [
          `- ${r.name}: clients were answered at ${r.answeredPerSecond}/s; the last statuses were applied ${r.settledAfterSeconds} s after the load stopped (requests/s counts the messages whose statuses were all applied, from the warm-up to then).`,
        ]
      : [],
  ),
  ...notes.map((note) => `- ${note}`),
  ...(notes.length > 0 || results.some((r) => r.refusals || r.settledAfterSeconds !== undefined) ? [''] : []),
  'Start-up, process start to listening (for the gateway, migrations on an empty database included):',
  '',
  '| process | ms | ratio to bare |',
  '|---|---|---|',
  ...[...startupMs].map(
    ([target, ms]) =>
      `| ${target === 'bare Fastify route' ? target : `gateway, ${target}`} | ${ms} | ${(ms / (startupMs.get('bare Fastify route') ?? ms)).toFixed(1)} |`,
  ),
  '',
  ...(hooks.length
    ? [
        `Webhook delivery: ${WEBHOOK_EVENTS} events written to the outbox, delivered signed to a local receiver; "of a backlog": written first, the clock starting when they are replayed.`,
        '',
        '| target | events | seconds | events/s |',
        '|---|---|---|---|',
        ...hooks.map((h) => `| ${h.name} | ${h.events} | ${h.seconds} | ${h.eventsPerSecond} |`),
        '',
      ]
    : []),
  ...(imports.length
    ? [
        'Contact import: a CSV file sent to POST /api/v1/contacts/import, from the first byte to the answer.',
        '',
        '| target | rows | seconds | rows/s | peak RSS MB |',
        '|---|---|---|---|---|',
        ...imports.map(
          (i) => `| ${i.name} | ${i.rows} | ${i.seconds} | ${i.rowsPerSecond} | ${i.peakRssMb ?? 'n/a'} |`,
        ),
        '',
      ]
    : []),
];
if (campaigns.length) {
  lines.push(
    `Campaigns: ${CAMPAIGN_RECIPIENTS} recipients from an uploaded CSV file at a ${CAMPAIGN_TIER}/s tier, which the network enforces too; from the start to COMPLETED, beside the ideal (recipients ÷ tier).`,
    '',
    '| target | recipients | seconds | ideal s | ratio to ideal | sent | failed | peak RSS MB per node |',
    '|---|---|---|---|---|---|---|---|',
    ...campaigns.map(
      (c) =>
        `| ${c.name} | ${c.recipients} | ${c.seconds} | ${c.idealSeconds} | ${(c.seconds / c.idealSeconds).toFixed(2)} | ${c.sent} | ${c.failed} | ${c.peakRssMb.join(', ')} |`,
    ),
    '',
  );
}
const report = lines.join('\n');
process.stdout.write(report);
mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(path.join(import.meta.dirname, 'results', `send-text-${Date.now()}.md`), report);
