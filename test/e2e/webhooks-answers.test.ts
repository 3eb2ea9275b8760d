/**
 * What a receiver answers is kept only for diagnostics (the first 1 KiB, docs/webhooks.md): a huge or
 * endless answer must not be read whole, and an answer that trickles forever must not hold the delivery
 * past the webhook timeout. Nor may a receiver's Retry-After park a delivery beyond the retry schedule.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { call, createAccount, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { postgresSkipReason } from '../support/postgres.ts';

const HUGE_BYTES = 200 * 1024 * 1024;
const CHUNK = 64 * 1024;
const TIMEOUT_MS = 3000;

interface Answering {
  url: string;
  /** Bytes of the answer written before the gateway closed the connection (or all of them). */
  written: Promise<number>;
  server: Server;
}

/** Every answer is the alphabet, repeated: any stretch of it is recognisable by its offset. */
const ALPHABET = 26;
const PATTERN = Buffer.from(Array.from({ length: CHUNK + ALPHABET }, (_, i) => 97 + (i % ALPHABET)));

function patternChunk(offset: number, size: number): Buffer {
  return PATTERN.subarray(offset % ALPHABET, (offset % ALPHABET) + size);
}

/** A receiver that answers 200 and then writes its body with `write`, counting what got out. */
async function answering(
  write: (res: ServerResponse, stillOpen: () => boolean) => Promise<number>,
): Promise<Answering> {
  let report: (bytes: number) => void = () => {};
  const written = new Promise<number>((resolve) => {
    report = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    let open = true;
    res.on('close', () => {
      open = false;
    });
    res.writeHead(200, { 'content-type': 'text/plain' });
    void write(res, () => open).then(report);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, written, server };
}

/** Writes up to `total` bytes as fast as the connection takes them; stops when it closes. */
async function writeHuge(res: ServerResponse, stillOpen: () => boolean, total: number): Promise<number> {
  let sent = 0;
  while (sent < total && stillOpen()) {
    const size = Math.min(CHUNK, total - sent);
    const ok = res.write(patternChunk(sent, size));
    sent += size;
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (stillOpen()) res.end();
  return sent;
}

/** Writes one byte of the pattern every 50 ms for as long as the connection stays open. */
async function trickle(res: ServerResponse, stillOpen: () => boolean): Promise<number> {
  let sent = 0;
  while (stillOpen()) {
    res.write(patternChunk(sent, 1));
    sent++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return sent;
}

describe('receiver answers', () => {
  let t: TestGateway;
  let quick: TestGateway;

  before(async () => {
    // A timeout long enough to read 200 MB whole (as a gateway that reads whole answers would); the
    // quick gateway's timeout cuts a trickling answer.
    t = await startGateway({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '60000' },
    });
    quick = await startGateway({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
  });
  after(async () => {
    await t.close();
    await quick.close();
  });

  async function deliverOneTo(gateway: TestGateway, url: string, name: string) {
    const account = await createAccount(gateway, name);
    const created = await call(gateway.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url, events: ['message.received'] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await insertEvent(
      gateway.gateway.store.db,
      account.accountId,
      'message.received',
      { text: 'hi' },
      Date.now(),
    );
    gateway.gateway.dispatcher.wake();
    const route = `/api/v1/webhooks/${created.body.data.id}/deliveries?status=succeeded`;
    const [delivery] = await eventually(async () => {
      const list = await call(gateway.url, 'GET', route, { key: account.apiKey });
      return list.body.data.length ? list.body.data : undefined;
    }, 120_000);
    return delivery;
  }

  test('a 200 MB answer is cut after its first KiB, which the attempt keeps', async (context) => {
    const receiver = await answering((res, open) => writeHuge(res, open, HUGE_BYTES));
    try {
      const delivery = await deliverOneTo(t, receiver.url, 'Huge Answer Co');
      const [attempt] = delivery.attempts;
      assert.equal(attempt.statusCode, 200);
      assert.equal(attempt.responseBody, patternChunk(0, 1024).toString('latin1'));
      const written = await receiver.written;
      context.diagnostic(`the receiver wrote ${written} of ${HUGE_BYTES} bytes before the connection closed`);
      // Socket buffers take a few MB before the receiver sees the connection close; a body read whole
      // would have taken all 200 MB.
      assert.ok(written < HUGE_BYTES / 8, `the receiver wrote ${written} bytes before the connection closed`);
    } finally {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  });

  test('an answer that trickles forever is cut by the webhook timeout', async () => {
    const receiver = await answering(trickle);
    try {
      const delivery = await deliverOneTo(quick, receiver.url, 'Trickle Co');
      const [attempt] = delivery.attempts;
      // The status line said 200: the receiver took the event; only the rest of its answer was cut.
      assert.equal(attempt.statusCode, 200);
      assert.match(attempt.error, new RegExp(`timeout after ${TIMEOUT_MS} ms`));
      assert.ok(attempt.latencyMs >= TIMEOUT_MS - 100, `cut after ${attempt.latencyMs} ms`);
      const written = await receiver.written;
      assert.ok(attempt.responseBody.length > 0, 'what arrived before the timeout is kept');
      assert.equal(attempt.responseBody, patternChunk(0, attempt.responseBody.length).toString('latin1'));
      assert.ok(attempt.responseBody.length <= written);
    } finally {
      receiver.server.closeAllConnections();
      receiver.server.close();
    }
  });
});

for (const database of ['sqlite', 'postgres'] as const) {
  describe(`a receiver's Retry-After on ${database}`, async () => {
    const skip = database === 'postgres' ? await postgresSkipReason() : false;

    test('is honoured only up to the longest delay of the retry schedule', { skip }, async () => {
      const gateway = await startGateway({
        database,
        env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1h' },
      });
      // Seventeen nines of seconds: a date no database column holds, and no delivery should wait for.
      const receiver = createServer((req, res) => {
        req.resume();
        res.writeHead(429, { 'retry-after': '99999999999999999' }).end('slow down');
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
        const account = await createAccount(gateway, 'Patient Co');
        const created = await call(gateway.url, 'POST', '/api/v1/webhooks', {
          key: account.apiKey,
          body: { url, events: ['message.received'] },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const db = gateway.gateway.store.db;
        await insertEvent(db, account.accountId, 'message.received', { text: 'later' }, Date.now());
        gateway.gateway.dispatcher.wake();
        const route = `/api/v1/webhooks/${created.body.data.id}/deliveries`;
        const delivery = await eventually(async () => {
          const list = await call(gateway.url, 'GET', route, { key: account.apiKey });
          assert.equal(list.status, 200, JSON.stringify(list.body));
          return list.body.data.find((d: { attempts: unknown[] }) => d.attempts.length === 1);
        });
        assert.equal(delivery.status, 'pending');
        const [attempt] = delivery.attempts;
        assert.equal(attempt.statusCode, 429);
        const waitMs = Date.parse(delivery.nextAttemptAt) - Date.parse(attempt.at);
        assert.ok(waitMs >= 3_600_000, `next attempt after ${waitMs} ms`);
        assert.ok(waitMs <= 3_600_000 + attempt.latencyMs + 1000, `next attempt after ${waitMs} ms`);
      } finally {
        receiver.close();
        await gateway.close();
      }
    });
  });
}
