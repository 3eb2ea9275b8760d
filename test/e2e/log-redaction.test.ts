/**
 * No credential reaches the log (docs/operations.md, Logs), at `trace` and at `info`: requests carry an
 * API key, a bearer token, a session cookie and a webhook signature in their headers, a multipart upload
 * (whose plugin logs the request's headers at `trace`), a signed media link, a flow preview link, the
 * network's verification handshake and a Graph call with `?access_token=`. Every line the logger writes
 * is read, and none may hold any of the secret values; the lines about those requests must be there.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { flowPreviewLink } from '../../src/lib/flow-preview-links.ts';
import { mediaLink } from '../../src/lib/media-links.ts';
import { createAccount, startGateway, type TestGateway } from '../support/gateway.ts';

const secret = (label: string) => `${label}${randomBytes(12).toString('hex')}`;

interface Secrets {
  apiKey: string;
  bearer: string;
  cookie: string;
  hubSignature: string;
  verifyToken: string;
  simulatorToken: string;
  mediaSignature: string;
  previewToken: string;
}

/** Makes every request that may log a credential; returns the credentials used. */
async function requestsWithSecrets(t: TestGateway, verifyToken: string, simulatorToken: string) {
  const { apiKey } = await createAccount(t);
  const bearer = secret('bearer');
  const cookie = secret('session');
  const hubSignature = `sha256=${randomBytes(32).toString('hex')}`;

  await fetch(`${t.url}/api/v1/webhooks`, { headers: { apiKey, authorization: `Bearer ${bearer}` } });
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'doc.pdf');
  const upload = await fetch(`${t.url}/api/v1/template/upload/file`, {
    method: 'POST',
    headers: { apiKey, cookie: `sb_session=${cookie}` },
    body: form,
  });
  assert.equal(upload.status, 200);
  await fetch(`${t.url}/webhooks/network`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature },
    body: '{}',
  });
  const handshake = `hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`;
  assert.equal((await fetch(`${t.url}/webhooks/network?${handshake}`)).status, 200);
  const templates = `/simulator/v23.0/${DEFAULT_SANDBOX_NUMBER}/message_templates`;
  assert.equal((await fetch(`${t.url}${templates}?access_token=${simulatorToken}`)).status, 200);

  const media = new URL(mediaLink(t.url, t.gateway.secretKey, 'med_0123456789abcdef'));
  await fetch(`${t.url}${media.pathname}${media.search}`);
  const preview = new URL(flowPreviewLink(t.url, t.gateway.secretKey, 7).preview_url);
  await fetch(`${t.url}${preview.pathname}`);
  return {
    apiKey,
    bearer,
    cookie,
    hubSignature,
    verifyToken,
    simulatorToken,
    mediaSignature: media.searchParams.get('signature')!,
    previewToken: preview.pathname.split('/').at(-1)!,
  } satisfies Secrets;
}

function assertNoSecret(lines: string[], secrets: Secrets): void {
  for (const [name, value] of Object.entries(secrets)) {
    const leaking = lines.find((line) => line.includes(value));
    assert.equal(leaking, undefined, `${name} appears in the log: ${leaking}`);
  }
}

for (const level of ['trace', 'info'] as const) {
  describe(`log at ${level}`, () => {
    const lines: string[] = [];
    const verifyToken = secret('verify');
    const simulatorToken = secret('graph');
    let t: TestGateway;
    let secrets: Secrets;
    before(async () => {
      t = await startGateway({
        env: { LOG_LEVEL: level, NETWORK_VERIFY_TOKEN: verifyToken, SIMULATOR_ACCESS_TOKEN: simulatorToken },
        logStream: { write: (line) => void lines.push(line) },
      });
      secrets = await requestsWithSecrets(t, verifyToken, simulatorToken);
    });
    after(async () => {
      await t?.close();
    });

    test('no key, token, cookie, signature or signed link appears in any line', () => {
      assert.ok(lines.length > 0);
      assertNoSecret(lines, secrets);
    });

    test('the requests are logged, their credentials replaced by [Redacted]', () => {
      const urls = lines.map((line) => JSON.parse(line)).flatMap((entry) => entry.req?.url ?? []);
      const mediaUrl = /^\/media\/med_0123456789abcdef\?expires=\d+&signature=\[Redacted\]$/;
      assert.ok(
        urls.some((u: string) => mediaUrl.test(u)),
        urls.join('\n'),
      );
      assert.ok(urls.includes('/flows/preview/[Redacted]'), urls.join('\n'));
      assert.ok(urls.some((u: string) => u.includes('hub.verify_token=[Redacted]&hub.challenge=42')));
      assert.ok(urls.some((u: string) => u.endsWith('/message_templates?access_token=[Redacted]')));
    });

    if (level === 'trace') {
      test("the multipart plugin's line with the request headers has them redacted", () => {
        const entry = lines
          .map((line) => JSON.parse(line))
          .find((e) => e.msg === 'Providing options to busboy');
        assert.ok(entry, 'the multipart plugin logs its options at trace');
        assert.equal(entry.busboyOptions.headers.apikey, '[Redacted]');
        assert.equal(entry.busboyOptions.headers.cookie, '[Redacted]');
        assert.match(entry.busboyOptions.headers['content-type'], /^multipart\/form-data; boundary=/);
      });
    }
  });
}
