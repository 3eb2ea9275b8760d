/**
 * Request timeouts (docs/configuration.md, Timeouts) over raw sockets: a body sent a byte at a time, or
 * headers that never end, are cut off with a 408 once REQUEST_TIMEOUT_MS / HEADERS_TIMEOUT_MS have passed,
 * even though bytes keep coming; the phone page's live stream, a long response to a short request, is not.
 * The timeouts are set small (500 ms); each wait is bounded generously, never measured.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createAccount, eventually, startGateway, type TestGateway, userSays } from '../support/gateway.ts';

const TIMEOUT_MS = 500;
/** Far past the timeout: only a connection the server never closes takes this long. */
const BOUND_MS = 30_000;
const USER = '254711000111';

interface SlowClient {
  /** Everything the server answered, once it closed the connection; rejects if it is still open at BOUND_MS. */
  closed: Promise<string>;
}

/** Sends `head`, then one more byte of `trickle` every 50 ms: never idle, never finished. */
function slowClient(url: string, head: string, trickle: string): SlowClient {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let answer = '';
  let sent = 0;
  let drip: ReturnType<typeof setInterval> | undefined;
  // The drip starts once the head is written: a byte before it would make the request malformed.
  socket.on('connect', () => {
    socket.write(head);
    drip = setInterval(() => {
      if (socket.writable) socket.write(trickle[sent++ % trickle.length]!);
    }, 50);
  });
  socket.on('data', (chunk) => {
    answer += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve, reject) => {
    const bound = setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${BOUND_MS} ms`));
    }, BOUND_MS);
    socket.on('close', () => {
      clearTimeout(bound);
      clearInterval(drip);
      resolve(answer);
    });
  });
  return { closed };
}

function slowBody(url: string): SlowClient {
  const head =
    'POST /webhooks/network HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    'X-Hub-Signature-256: sha256=00\r\nContent-Length: 100000\r\n\r\n{"object":';
  return slowClient(url, head, ' ');
}

describe('request timeouts', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway({
      env: { REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(TIMEOUT_MS) },
    });
  });
  after(async () => {
    await t?.close();
  });

  test('a slow body on /webhooks/network is answered 408 and the connection closed', async () => {
    const answer = await slowBody(t.url).closed;
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /the request was not received in time/);
  });

  test('a slow multipart upload, read by its handler as it comes, is cut off the same way', async () => {
    const { apiKey } = await createAccount(t);
    const head =
      'POST /api/v1/template/upload/file HTTP/1.1\r\nHost: localhost\r\n' +
      `apiKey: ${apiKey}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n` +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n';
    const answer = await slowClient(t.url, head, '%').closed;
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
  });

  test('headers that never end are answered 408 and the connection closed', async () => {
    const head = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
    const answer = await slowClient(t.url, head, 'a').closed;
    assert.match(answer, /^HTTP\/1\.1 408 /);
  });

  test('500 slow bodies at once are all closed, and the gateway still answers', async () => {
    const clients = Array.from({ length: 500 }, () => slowBody(t.url));
    const answers = await Promise.all(clients.map((c) => c.closed));
    assert.equal(answers.length, 500);
    const health = await fetch(`${t.url}/healthz`);
    assert.equal(health.status, 200);
  });

  test('the live stream of the phone page outlives the request timeout', async () => {
    const controller = new AbortController();
    const response = await fetch(`${t.url}/simulator/users/${USER}/events`, { signal: controller.signal });
    assert.equal(response.status, 200);
    let received = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body!) received += decoder.decode(chunk, { stream: true });
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error;
      }
    })();
    try {
      // The control: a slow body started after the stream opened has been cut off, so the stream's own
      // request deadline has passed and been checked by then.
      assert.match(await slowBody(t.url).closed, /^HTTP\/1\.1 408 /);
      const sent = await userSays(t, USER, '14155550100', { text: 'still listening?' });
      // Delivered on the stream opened before the timeout: it was not closed.
      await eventually(() => received.includes(sent.id), BOUND_MS);
    } finally {
      controller.abort();
      await reading;
    }
  });
});

describe('idle connections', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway({ env: { IDLE_TIMEOUT_MS: '45000', KEEP_ALIVE_TIMEOUT_MS: '5000' } });
  });
  after(async () => {
    await t?.close();
  });

  test('a connection on which nothing moves is closed after IDLE_TIMEOUT_MS; kept-alive ones sooner', () => {
    // Waiting out 45 s here would prove nothing more than Node's own socket timeout: check it is set.
    assert.equal(t.gateway.app.server.timeout, 45_000);
    assert.equal(t.gateway.app.server.keepAliveTimeout, 5_000);
  });
});
