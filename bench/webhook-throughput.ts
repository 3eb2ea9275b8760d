/**
 * Webhook delivery throughput: N events are written to the outbox of a running gateway (as its own
 * domain code writes them, by several transactions at once), and the clock runs until a local receiver has
 * accepted them all. Reports
 * events per second and the gateway's peak RSS.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore } from '../src/store/connect.ts';
import { insertEvent } from '../src/store/webhooks-repo.ts';
import { createPostgresSchema } from '../test/support/postgres.ts';
import { runCli, spawnGateway } from '../test/support/process.ts';
import { profileOptions } from './profile.ts';

/** Concurrent writers of the events, and the events each writes per transaction. */
const WRITERS = 8;
const CHUNK = 100;

export interface WebhookResult {
  name: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * `outbox`: the clock runs from the first event written (the gateway delivers while they are written).
 * `backlog`: the events are written while the endpoint is off, then it is turned on and they are replayed
 * (`POST /api/v1/webhooks/<id>/replay`): the clock runs from the replay, so it times the delivery alone,
 * as after a receiver's outage, without the writer taking a share of the machine.
 */
export type WebhookMode = 'outbox' | 'backlog';

async function endpointCall(
  gatewayUrl: string,
  apiKey: string,
  method: string,
  route: string,
  body: unknown,
) {
  const r = await fetch(`${gatewayUrl}/api/v1/webhooks${route}`, {
    method,
    headers: { 'content-type': 'application/json', apiKey },
    body: JSON.stringify(body),
  });
  if (r.status >= 300) throw new Error(`${method} /api/v1/webhooks${route}: ${r.status} ${await r.text()}`);
  return (await r.json()) as { data: { id: string } };
}

export async function webhookThroughput(
  target: 'sqlite' | 'postgres',
  events: number,
  mode: WebhookMode = 'outbox',
): Promise<WebhookResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-bench-hooks-'));
  const schema = target === 'postgres' ? await createPostgresSchema() : undefined;
  const databaseUrl = schema?.url ?? `sqlite:${path.join(dataDir, 'bench.db')}`;
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SECRET_KEY: 'c'.repeat(64),
    SEED_DEMO_ACCOUNT: 'false',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    ...profileOptions(),
  };
  let received = 0;
  let done: () => void = () => {};
  const allReceived = new Promise<void>((resolve) => {
    done = resolve;
  });
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      if (++received === events) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  const gateway = await spawnGateway(env);
  try {
    const account = JSON.parse(runCli(['accounts', 'create', '--name', 'Hooks', '--json'], env).stdout);
    const endpoint = await endpointCall(gateway.url, account.apiKey, 'POST', '', { url: receiverUrl });
    const endpointId = endpoint.data.id;
    const since = new Date(Date.now() - 1000).toISOString();
    if (mode === 'backlog')
      await endpointCall(gateway.url, account.apiKey, 'PATCH', `/${endpointId}`, { enabled: false });
    // Written as a busy gateway writes them: many transactions at once (WRITERS), each of a chunk.
    const store = openStore(databaseUrl, { poolSize: WRITERS });
    let started = performance.now();
    try {
      const chunks = Array.from({ length: Math.ceil(events / CHUNK) }, (_, c) => c * CHUNK);
      const writeChunk = (first: number) =>
        store.db.transaction().execute(async (trx) => {
          for (let j = first; j < Math.min(events, first + CHUNK); j++) {
            await insertEvent(
              trx,
              account.accountId,
              'message.received',
              { n: j, text: 'benchmark event' },
              Date.now(),
            );
          }
        });
      const writer = async () => {
        for (let next = chunks.shift(); next !== undefined; next = chunks.shift()) await writeChunk(next);
      };
      await Promise.all(Array.from({ length: WRITERS }, writer));
    } finally {
      await store.close();
    }
    if (mode === 'backlog') {
      await endpointCall(gateway.url, account.apiKey, 'PATCH', `/${endpointId}`, { enabled: true });
      started = performance.now();
      await endpointCall(gateway.url, account.apiKey, 'POST', `/${endpointId}/replay`, { since });
    }
    await allReceived;
    const seconds = (performance.now() - started) / 1000;
    return {
      name: `webhook delivery${mode === 'backlog' ? ' of a backlog' : ''} (${target})`,
      events,
      seconds: Number(seconds.toFixed(2)),
      eventsPerSecond: Math.round(events / seconds),
    };
  } finally {
    await gateway.stop();
    receiver.closeAllConnections();
    receiver.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
