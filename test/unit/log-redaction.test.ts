/**
 * The last layer of log redaction (src/http/log-redaction.ts): one finished JSON line in, the same line
 * with every credential replaced out, whatever shape the logger that wrote it gave it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scrubLogLine } from '../../src/http/log-redaction.ts';

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
