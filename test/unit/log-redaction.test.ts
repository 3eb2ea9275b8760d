/**
 * Log redaction (src/http/log-redaction.ts): its last layer takes one finished JSON line and gives the same
 * line with every credential replaced, whatever shape the logger that wrote it gave it; the logger built
 * with both layers redacts wherever a credential sits in what it is given.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { redactingLoggerOptions, scrubLogLine } from '../../src/http/log-redaction.ts';

const scrub = (entry: unknown) => JSON.parse(scrubLogLine(JSON.stringify(entry)));

test('credential fields are replaced at any depth, whatever their case, strings or arrays', () => {
  const entry = {
    msg: 'a plugin logged its options',
    options: {
      headers: {
        ApiKey: 'sb_live_secret',
        Authorization: 'Bearer "quoted\\" token',
        'set-cookie': ['sb_session=one', 'sb_csrf=two'],
        'content-type': 'multipart/form-data; boundary=x',
      },
    },
    deep: { deeper: { accessToken: 'EAAG-secret', password: 'correct horse' } },
    count: 3,
  };
  assert.deepEqual(scrub(entry), {
    msg: 'a plugin logged its options',
    options: {
      headers: {
        ApiKey: '[Redacted]',
        Authorization: '[Redacted]',
        'set-cookie': '[Redacted]',
        'content-type': 'multipart/form-data; boundary=x',
      },
    },
    deep: { deeper: { accessToken: '[Redacted]', password: '[Redacted]' } },
    count: 3,
  });
});

test('credential parameters of any URL, flow preview and portal link tokens are replaced; the rest stays', () => {
  const line = scrub({
    req: { url: '/media/med_1?expires=1790000000000&signature=abcDEF_-123' },
    err: { message: 'fetch https://example.org/hook?token=s3cret&x=1 failed' },
    handshake: '/webhooks/network?hub.mode=subscribe&HUB%2EVERIFY_TOKEN=v3rify&hub.challenge=9',
    graph: '/v23.0/123/message_templates?limit=5&access_token=EAAG1',
    preview:
      'https://gw.example/flows/preview/12.1790000000000.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ?x=1',
    invite: { url: '/app/invite/Qm9vdGgtb25lLXRpbWUtbGluay10b2tlbi0wMTIzNDU2Nzg' },
  });
  assert.deepEqual(line, {
    req: { url: '/media/med_1?expires=1790000000000&signature=[Redacted]' },
    err: { message: 'fetch https://example.org/hook?token=[Redacted]&x=1 failed' },
    handshake: '/webhooks/network?hub.mode=subscribe&HUB%2EVERIFY_TOKEN=[Redacted]&hub.challenge=9',
    graph: '/v23.0/123/message_templates?limit=5&access_token=[Redacted]',
    preview: 'https://gw.example/flows/preview/[Redacted]?x=1',
    invite: { url: '/app/invite/[Redacted]' },
  });
});

test('a line without credentials is left as it was', () => {
  const line = `${JSON.stringify({ level: 30, msg: 'request completed', res: { statusCode: 200 } })}\n`;
  assert.equal(scrubLogLine(line), line);
});

test('through the logger the gateway builds, credentials are redacted at the top, on the request and deeper', () => {
  const lines: string[] = [];
  // Fastify takes the stream among the options; pino on its own takes it beside them.
  const { stream, ...options } = redactingLoggerOptions('trace', {
    write: (line: string) => lines.push(line),
  });
  const logger = pino(options, stream);
  // Where @fastify/multipart puts the request headers at `trace`: one level down, under its own key.
  logger.trace({ part: { headers: { apikey: 'sb_live_nested', 'content-type': 'text/plain' } } }, 'part');
  logger.info({ req: { headers: { authorization: 'Bearer on-the-request' } }, apiKey: 'sb_live_top' }, 'r');
  logger.child({ reqId: 'req-1' }).warn({ accessToken: 'EAAG-top' }, 'child');
  const text = lines.join('');
  for (const secret of ['sb_live_nested', 'on-the-request', 'sb_live_top', 'EAAG-top'])
    assert.equal(text.includes(secret), false, `${secret} is in the log: ${text}`);
  assert.equal(lines.length, 3);
  assert.match(text, /"content-type":"text\/plain"/);
  assert.match(text, /"reqId":"req-1"/);
});
