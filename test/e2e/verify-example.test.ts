/**
 * examples/verify-webhook.mjs run as docs/webhooks.md says, as a program: a signed delivery whose body
 * reaches it in two pieces, split inside a character, is still verified, since the receiver joins the
 * bytes before decoding them; a wrong signature is refused.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';

const EXAMPLE = new URL('../../examples/verify-webhook.mjs', import.meta.url).pathname;

/** POSTs `body` in two writes, split at byte `at`, with the Standard Webhooks headers; the status. */
async function deliver(
  port: number,
  body: Buffer,
  at: number,
  signature: string,
  id: string,
  timestamp: string,
) {
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/events',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    },
  });
  req.flushHeaders();
  req.write(body.subarray(0, at));
  // The second piece after the first has gone out: in most runs the receiver reads it as its own chunk.
  await new Promise((resolve) => setImmediate(resolve));
  req.end(body.subarray(at));
  const [response] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  response.resume();
  return response.statusCode;
}

describe('the example receiver of docs/webhooks.md', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  let receiver: ChildProcess;
  let port: number;

  before(async () => {
    receiver = spawn(process.execPath, [EXAMPLE], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let printed = '';
    for await (const chunk of receiver.stdout!) {
      printed += chunk;
      const found = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(printed);
      if (found) {
        port = Number(found[1]);
        break;
      }
    }
  });
  after(() => {
    receiver.kill();
  });

  test('a body split inside a character is verified; a wrong signature is refused', async () => {
    const body = Buffer.from(
      JSON.stringify({ type: 'message.received', data: { text: 'Habari 👋 karibu' } }),
    );
    const at = body.indexOf(Buffer.from('👋')) + 2;
    const id = 'evt_example';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const signed = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
    assert.equal(await deliver(port, body, at, `v1,${signed}`, id, timestamp), 204);
    const wrong = `v1,${Buffer.alloc(32).toString('base64')}`;
    assert.equal(await deliver(port, body, at, wrong, id, timestamp), 401);
  });
});
