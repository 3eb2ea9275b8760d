/**
 * A contact import of BENCH_IMPORT_ROWS rows (default 1,000,000) through `POST /api/v1/contacts/import`,
 * on a gateway process of each store: the CSV file is written to disk first and sent from it (neither the
 * benchmark nor the gateway holds it whole); reported are the seconds from the first byte sent to the
 * answer, rows per second and the gateway's peak RSS.
 */
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresSchema } from '../test/support/postgres.ts';
import { type GatewayProcess, runCli, spawnGateway } from '../test/support/process.ts';
import { peakRssMb } from './load.ts';

export interface ImportResult {
  name: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number | null;
}

/** Columns as a business would have them: number, name, two tags, an attribute. */
async function writeCsv(file: string, rows: number): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.write('phone,name,tags,city\n');
    const lines: string[] = [];
    for (let i = 0; i < rows; i++) {
      lines.push(`+2547${String(i).padStart(8, '0')},Person ${i},imported;group${i % 10},City ${i % 50}`);
      if (lines.length === 10_000 || i === rows - 1) {
        await handle.write(`${lines.join('\n')}\n`);
        lines.length = 0;
      }
    }
  } finally {
    await handle.close();
  }
}

export async function importRows(target: 'sqlite' | 'postgres', rows: number): Promise<ImportResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-import-'));
  const schema = target === 'postgres' ? await createPostgresSchema() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: schema?.url ?? `sqlite:${path.join(dataDir, 'bench.db')}`,
    SECRET_KEY: 'b'.repeat(64),
    SEED_DEMO_ACCOUNT: 'false',
    RATE_LIMIT_PER_SECOND: '0',
  };
  let gateway: GatewayProcess | undefined;
  try {
    const file = path.join(dataDir, 'contacts.csv');
    await writeCsv(file, rows);
    gateway = await spawnGateway({ ...env, LOG_LEVEL: 'warn' });
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Import', '--json'], env).stdout);
    const form = new FormData();
    form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'contacts.csv');
    const started = performance.now();
    const answer = await fetch(`${gateway.url}/api/v1/contacts/import`, {
      method: 'POST',
      headers: { apiKey: account.apiKey },
      body: form,
    });
    const body = (await answer.json()) as { data?: { created: number } };
    const seconds = (performance.now() - started) / 1000;
    if (answer.status !== 200 || body.data?.created !== rows) {
      throw new Error(`the import answered ${answer.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    return {
      name: `contact import, ${target}`,
      rows,
      seconds: Math.round(seconds * 10) / 10,
      rowsPerSecond: Math.round(rows / seconds),
      peakRssMb: peakRssMb(gateway.child.pid),
    };
  } finally {
    await gateway?.stop();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
