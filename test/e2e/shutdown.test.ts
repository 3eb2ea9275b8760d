/**
 * Shutdown (docs/operations.md): requests in flight finish, then every connection closes. A keep-alive
 * connection whose request ends after closing started must not hold the shutdown until its keep-alive
 * timeout: here that timeout is ten minutes, so a gateway that waited for it would time the test out.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startGateway } from '../support/gateway.ts';

test('a request that finishes after closing started is answered, and its connection does not hold the close', {
  timeout: 60_000,
}, async () => {
  const t = await startGateway({ env: { KEEP_ALIVE_TIMEOUT_MS: '600000' } });
  const { port } = new URL(t.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const received = new Promise<void>((resolve) => t.gateway.app.server.once('request', () => resolve()));
  const body = '{"object":"whatsapp_business_account","entry":[]}';
  // Headers now, the body later: the request is in flight when the close begins.
  socket.write(
    `POST /webhooks/network HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Connection: keep-alive\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  let answer = '';
  socket.on('data', (chunk) => {
    answer += chunk.toString('latin1');
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // The server has the request's headers; closing starts while its body is still due.
  await received;
  const closing = t.close();
  socket.write(body);
  await closing;
  await ended;
  assert.match(answer, /^HTTP\/1\.1 401 /, 'the request in flight was answered (unsigned: 401)');
});
