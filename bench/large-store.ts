/**
 * The send path on a store that has been in use for a while (docs/scaling.md): BENCH_LARGE_STORE past
 * messages (default 5,000,000, spread over 40 days) are written into the database first
 * (bench/seed-messages.ts) and written out (settleSeeding), then the send path is measured as on an empty
 * store, beside the bare route measured just before; then again right after a
 * restart with RETENTION_DAYS=39, while the retention job removes the oldest day in the background.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { DEFAULT_SANDBOX_NUMBER } from '../src/config/config.ts';
import { firstIdAt } from '../src/lib/ids.ts';
import { openStore, type Store } from '../src/store/connect.ts';
import { createPostgresSchema } from '../test/support/postgres.ts';
import { type GatewayProcess, runCli, spawnGateway } from '../test/support/process.ts';
import { freePort, joinSandbox, load, type Result } from './load.ts';
import { spawnNetwork } from './network-process.ts';
import { seedMessages } from './seed-messages.ts';
import { analyzeSchema } from './statistics.ts';

const USER = '254712340002';
const SECRET_KEY = 'e'.repeat(64);
const DAYS = 40;
const DAY_MS = 86_400_000;

export interface LargeStoreReport {
  rows: Result[];
  notes: string[];
}

async function messagesBefore(databaseUrl: string, cutoff: number): Promise<number> {
  const store = openStore(databaseUrl, { poolSize: 1 });
  try {
    const row = await store.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '<', firstIdAt('msg', cutoff))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await store.close();
  }
}

/**
 * The seeding writes gigabytes in a minute or two, far more than a store in use takes in that time, and
 * leaves PostgreSQL writing the seeded pages out in checkpoints for minutes after. A checkpoint now writes
 * them out before the rows, so that the rows measure a store that grew over time, not the tail of its
 * seeding. (In one whole run the PostgreSQL row did 18 % less than the empty store, in the next run of
 * those rows alone as much; a checkpoint of the seeding under way or not is the likeliest difference.)
 * SQLite needs nothing: closing the seeding's connection, the database's only one, writes its WAL into the
 * database. Returns what could not be done.
 */
async function settleSeeding(store: Store): Promise<string | null> {
  if (store.dialect !== 'postgres') return null;
  try {
    await sql`checkpoint`.execute(store.db);
    return null;
  } catch (error) {
    // CHECKPOINT needs a superuser or the pg_checkpoint role.
    return `the seeded store could not be checkpointed (${(error as Error).message}): the rows may measure its tail`;
  }
}

export async function largeStoreRows(
  target: 'sqlite' | 'postgres',
  count: number,
  connections: number,
  /** The bare route, measured just before the first row (bench/run.ts says why). */
  bareRoute: () => Promise<Result[]>,
): Promise<LargeStoreReport> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-large-'));
  const networkDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-large-net-'));
  const schema = target === 'postgres' ? await createPostgresSchema() : undefined;
  const databaseUrl = schema?.url ?? `sqlite:${path.join(dataDir, 'bench.db')}`;
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SECRET_KEY,
    SEED_DEMO_ACCOUNT: 'false',
    LOG_LEVEL: 'warn',
    NETWORK_MAX_SENDS_PER_SECOND: '0',
    RATE_LIMIT_PER_SECOND: '0',
  };
  const notes: string[] = [];
  const processes: GatewayProcess[] = [];
  try {
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Large', '--json'], env).stdout);
    const store = openStore(databaseUrl, { poolSize: 2 });
    const now = Date.now();
    const seconds = await seedMessages(store, account.accountId, count, DAYS, now);
    // A store that grew over a year has been analyzed by autovacuum (statistics.ts).
    if (schema) await analyzeSchema(schema.url);
    const unsettled = await settleSeeding(store);
    if (unsettled) notes.push(`${target}: ${unsettled}.`);
    await store.close();
    notes.push(
      `${target}: ${count.toLocaleString('en')} messages over ${DAYS} days written in ${seconds} s.`,
    );

    const networkPort = await freePort();
    const graph = { GRAPH_BASE_URL: `http://127.0.0.1:${networkPort}/simulator` };
    let gateway = await spawnGateway({ ...env, ...graph });
    processes.push(gateway);
    const network = await spawnNetwork({
      dataDir: networkDir,
      secretKey: SECRET_KEY,
      port: networkPort,
      webhookUrl: `${gateway.url}/webhooks/network`,
      env: { SIMULATOR_STATUS_WEBHOOKS: 'false' },
    });
    processes.push(network);
    await joinSandbox(network.url, account, USER, [gateway.url]);
    let sent = 0;
    const send = (name: string, url: string, pid: number | undefined) =>
      load(
        name,
        `${url}/api/v1/msg/message/text`,
        pid,
        { 'content-type': 'application/json', apiKey: account.apiKey },
        () =>
          JSON.stringify({
            messageId: `large-${sent++}`,
            from: DEFAULT_SANDBOX_NUMBER,
            to: USER,
            message: 'b',
          }),
        connections,
      );
    const label = `${(count / 1e6).toLocaleString('en')} M messages`;
    const rows = [
      ...(await bareRoute()),
      await send(`gateway send-text, ${target}, store of ${label}`, gateway.url, gateway.child.pid),
    ];

    // The same store, restarted with a retention that makes the oldest day expire at once.
    const cutoff = now - (DAYS - 1) * DAY_MS;
    const expired = await messagesBefore(databaseUrl, cutoff);
    await gateway.stop();
    gateway = await spawnGateway({
      ...env,
      ...graph,
      PORT: new URL(gateway.url).port,
      RETENTION_DAYS: String(DAYS - 1),
    });
    processes.push(gateway);
    rows.push(
      await send(
        `gateway send-text, ${target}, store of ${label}, retention removing a day`,
        gateway.url,
        gateway.child.pid,
      ),
    );
    const left = await messagesBefore(databaseUrl, cutoff);
    notes.push(
      `${target}: retention removed ${(expired - left).toLocaleString('en')} of the day's ${expired.toLocaleString('en')} expired messages during that row.`,
    );
    return { rows, notes };
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(networkDir, { recursive: true, force: true });
  }
}
