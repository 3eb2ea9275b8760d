/**
 * What one send costs the database (docs/scaling.md): statements sent (each a round trip on PostgreSQL),
 * and on PostgreSQL the WAL it writes, for the send path alone and for the status path (the sent,
 * delivered and read webhooks Meta posts for every message). Sends from an in-process gateway with the
 * simulator, one after the other and then 20 at a time, counted by wrapping the drivers' execute calls.
 *
 * `node bench/send-cost.ts` (BENCH_COST_SENDS, default 200).
 */
import { StatementSync } from 'node:sqlite';
import pg from 'pg';
import { DEFAULT_SANDBOX_NUMBER } from '../src/config/config.ts';
import { call, createAccount, eventually, joinSandbox, startGateway } from '../test/support/gateway.ts';

const SENDS = Number(process.env.BENCH_COST_SENDS ?? 200);
const USER = '254712340003';

let statements = 0;
const count = <T extends (...args: never[]) => unknown>(original: T): T =>
  function (this: unknown, ...args: Parameters<T>) {
    statements++;
    return original.apply(this, args);
  } as T;
pg.Client.prototype.query = count(pg.Client.prototype.query);
const statement = StatementSync.prototype as unknown as Record<string, (...args: never[]) => unknown>;
for (const method of ['all', 'run', 'get', 'iterate']) statement[method] = count(statement[method]!);

export interface SendCost {
  target: string;
  /** Sends made at a time. */
  together: number;
  sendStatements: number;
  statusStatements: number;
  sendWalBytes: number | null;
  statusWalBytes: number | null;
}

async function walBytes(t: Awaited<ReturnType<typeof startGateway>>): Promise<number | null> {
  if (t.gateway.store.dialect !== 'postgres') return null;
  const { sql } = await import('kysely');
  const r = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(
    t.gateway.store.db,
  );
  const [high, low] = r.rows[0]!.lsn.split('/').map((h) => Number.parseInt(h, 16)) as [number, number];
  return high * 2 ** 32 + low;
}

/** Per send, rounded to a tenth. */
const per = (n: number) => Math.round((n / SENDS) * 10) / 10;

async function measure(database: 'sqlite' | 'postgres', statuses: boolean, together: number) {
  const t = await startGateway({
    database,
    env: {
      SIMULATOR_STATUS_WEBHOOKS: String(statuses),
      NETWORK_MAX_SENDS_PER_SECOND: '0',
      SIMULATOR_PAIR_BURST: '0',
      // The statements counted are the gateway's: the in-process simulator keeps its own state apart.
      SIMULATOR_KEEP_STATE: 'false',
    },
  });
  try {
    const account = await createAccount(t, 'Cost');
    await joinSandbox(t, account, USER);
    await new Promise((r) => setTimeout(r, 500));
    const wal = await walBytes(t);
    statements = 0;
    // `together` sends at a time: on PostgreSQL, the reads and claims of concurrent sends share statements.
    for (let i = 0; i < SENDS; i += together) {
      const batch = Array.from({ length: Math.min(together, SENDS - i) }, (_, j) => i + j);
      await Promise.all(
        batch.map(async (n) => {
          const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
            key: account.apiKey,
            body: { messageId: `cost-${n}`, from: DEFAULT_SANDBOX_NUMBER, to: USER, message: 'cost' },
          });
          if (r.status !== 200) throw new Error(JSON.stringify(r.body));
        }),
      );
    }
    if (statuses) {
      // Every status applied: the last send's message is READ.
      await eventually(async () => {
        const r = await call(t.url, 'GET', `/api/v1/msg/message/cost-${SENDS - 1}`, { key: account.apiKey });
        return r.body.data.status === 'READ';
      }, 60_000);
      await new Promise((r) => setTimeout(r, 500));
    }
    const counted = statements;
    const walAfter = await walBytes(t);
    return { statements: counted, wal: wal === null || walAfter === null ? null : walAfter - wal };
  } finally {
    await t.close();
  }
}

/** The cost of SENDS sends made `together` at a time (1: one after the other). */
export async function sendCost(database: 'sqlite' | 'postgres', together = 1): Promise<SendCost> {
  const send = await measure(database, false, together);
  const loop = await measure(database, true, together);
  return {
    target: database,
    together,
    sendStatements: per(send.statements),
    statusStatements: per(loop.statements - send.statements),
    sendWalBytes: send.wal === null ? null : Math.round(send.wal / SENDS),
    statusWalBytes: send.wal === null || loop.wal === null ? null : Math.round((loop.wal - send.wal) / SENDS),
  };
}

if (import.meta.main) {
  for (const database of ['sqlite', 'postgres'] as const)
    for (const together of [1, 20]) console.log(JSON.stringify(await sendCost(database, together)));
}
