/**
 * Crash safety of inbound messages: the gateway process is SIGKILLed after it stored a user's photo and
 * while it copies the photo from the network (slow I/O, outside any transaction), so the message is
 * stored but not published. The network never got its 200 and delivers the webhook again to the
 * restarted gateway, which completes the message: exactly one `message.received`, with the copied photo.
 * On a SQLite file and on a PostgreSQL schema. The gateway is started again in this test process: only
 * the killed one needs a process of its own, and a process start costs about 0.9 s of CPU (test/run.ts).
 *
 * The network here is a small Graph stand-in in this test process that can hold a media download open,
 * so the kill falls exactly between storing and publishing.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { call, eventually, startGateway, TEST_SECRET_KEY, type TestGateway } from '../support/gateway.ts';
import {
  envelope,
  NETWORK_APP_SECRET,
  postNetworkWebhook,
  receivedEventsOf,
  storedInbound,
  unixSeconds,
} from '../support/network-envelopes.ts';
import { createPostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway } from '../support/process.ts';
import { startReceiver } from '../support/receiver.ts';

const BUSINESS = '14155550142';
const PHONE_NUMBER_ID = '105550142000001';
const USER = '254712300701';
const MEDIA_ID = '9000000000000001';
/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

interface GraphStandIn {
  base: string;
  /** Resolves when the gateway asks for the media the first time (its request is then held open). */
  mediaRequested: Promise<void>;
  /** From now on, media requests are answered. */
  serveMedia(): void;
  close(): Promise<void>;
}

/** Answers Graph media lookups and downloads; holds them open until serveMedia(). */
async function startGraphStandIn(): Promise<GraphStandIn> {
  let serving = false;
  let requested!: () => void;
  const mediaRequested = new Promise<void>((resolve) => {
    requested = resolve;
  });
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === `/download/${MEDIA_ID}`) {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      return;
    }
    if (url.endsWith(`/${MEDIA_ID}`) && !serving) {
      requested();
      return; // held open: the gateway waits on the network, as on a slow download
    }
    if (url.endsWith(`/${MEDIA_ID}`)) {
      const sha256 = createHash('sha256').update(PNG).digest('hex');
      const body = {
        url: `${base}/download/${MEDIA_ID}`,
        mime_type: 'image/png',
        sha256,
        file_size: PNG.length,
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"error":{"message":"unknown","code":100}}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    mediaRequested,
    serveMedia: () => {
      serving = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const photoWebhook = (waId: string) =>
  envelope([
    [
      {
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: BUSINESS, phone_number_id: PHONE_NUMBER_ID },
          contacts: [{ profile: { name: 'Kim' }, wa_id: USER }],
          messages: [
            {
              from: USER,
              id: waId,
              timestamp: unixSeconds(),
              type: 'image',
              image: { id: MEDIA_ID, mime_type: 'image/png', sha256: 'x', caption: 'my receipt' },
            },
          ],
        },
      },
    ],
  ]);

async function killMidCopyThenRedeliver(database: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-inbound-crash-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : undefined;
  const graph = await startGraphStandIn();
  const receiver = await startReceiver();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SEED_DEMO_ACCOUNT: 'false',
    GRAPH_BASE_URL: graph.base,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    NETWORK_APP_SECRET,
    ...(schema ? { DATABASE_URL: schema.url, SECRET_KEY: TEST_SECRET_KEY } : {}),
  };
  const store = openStore(schema ? schema.url : `sqlite:${path.join(dataDir, 'switchboard.db')}`);
  let gateway: GatewayProcess | undefined;
  let restarted: TestGateway | undefined;
  try {
    const created = await cliInProcess(['accounts', 'create', '--name', 'Crash Inbound Co', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { accountId: string; apiKey: string };
    const number = await cliInProcess(
      ['numbers', 'add', '--account', account.accountId, '--phone', `+${BUSINESS}`],
      {
        ...env,
        SIMULATOR_ACCESS_TOKEN: 'number-token',
      },
    );
    assert.equal(number.status, 0, number.stderr);
    // Registered with the simulator's convention (phone-number id = digits); moved to Meta's shape here.
    await store.db
      .updateTable('business_numbers')
      .set({ phone_number_id: PHONE_NUMBER_ID })
      .where('phone', '=', BUSINESS)
      .execute();

    gateway = await spawnGateway(env);
    const hook = await call(gateway.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url, events: ['message.received'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));

    const waId = `wamid.PHOTO.${database}`;
    const body = photoWebhook(waId);
    // The first delivery: stored, then held in the media copy, where the process dies.
    const first = postNetworkWebhook(gateway.url, body).then(
      (r) => r.status,
      () => 'cut off' as const,
    );
    // An answer before the media was asked for would leave nothing to kill mid-copy: fail with it.
    const answeredFirst = first.then((answer) => {
      throw new Error(`the webhook was answered (${answer}) before its media was asked for`);
    });
    await Promise.race([graph.mediaRequested, answeredFirst]);
    answeredFirst.catch(() => undefined); // settles when the kill cuts the request off
    assert.equal(await gateway.stop('SIGKILL'), null, 'the gateway died of SIGKILL');
    assert.equal(await first, 'cut off', 'the network never got an answer, so it delivers again');
    assert.ok(await storedInbound(store.db, waId), 'the message was stored before the kill');
    assert.deepEqual(await receivedEventsOf(store.db, waId), [], 'and not published');

    // The network's redelivery reaches the restarted gateway.
    graph.serveMedia();
    restarted = await startGateway({ env });
    assert.equal((await postNetworkWebhook(restarted.url, body)).status, 200);
    assert.equal((await postNetworkWebhook(restarted.url, body)).status, 200);
    const received = await eventually(() => receiver.received.find((r) => r.json.data?.messageId === waId));
    assert.equal(received.json.data.image.caption, 'my receipt');
    assert.match(received.json.data.image.url, /\/media\/med_[0-9a-z]+\?expires=\d+&signature=/);
    assert.equal((await receivedEventsOf(store.db, waId)).length, 1, 'published exactly once');
    const row = await storedInbound(store.db, waId);
    assert.equal(row?.account_id, account.accountId);
  } finally {
    if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null)
      await gateway.stop('SIGKILL');
    await restarted?.close();
    await store.close();
    await graph.close();
    await receiver.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('crash safety of inbound messages', async () => {
  const skipPostgres = await postgresSkipReason();

  test('SIGKILL between storing and publishing on SQLite: the redelivery publishes once', async () => {
    await killMidCopyThenRedeliver('sqlite');
  });

  test('SIGKILL between storing and publishing on PostgreSQL: the same', { skip: skipPostgres }, async () => {
    await killMidCopyThenRedeliver('postgres');
  });
});
