/**
 * How `/media/...` serves what users sent: raster images, audio and plain video shown inline, everything
 * else (HTML, SVG, PDF, unknown types) as a download; `nosniff` and a sandboxing CSP on every answer,
 * the 404 and 400 included; the stored type normalised, so a malformed or script type is served as
 * `application/octet-stream`.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { mediaLink } from '../../src/lib/media-links.ts';
import { mediaRepo } from '../../src/store/media-repo.ts';
import { createAccount, startGateway, type TestAccount, type TestGateway } from '../support/gateway.ts';
import { withTamperedSignature } from '../support/tamper.ts';

function assertSandboxed(response: Response, what: string): void {
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /(^|;\s*)sandbox(;|$)/, `${what}: CSP sandbox`);
  assert.match(csp, /default-src 'none'/, `${what}: CSP default-src 'none'`);
  assert.doesNotMatch(csp, /script-src|allow-scripts/, `${what}: no script allowed`);
}

describe('media answers', () => {
  let t: TestGateway;
  let account: TestAccount;

  /** A stored file of this type, as inbound copies are, and the path of its signed link. */
  async function stored(mimeType: string, content: string): Promise<string> {
    const media = mediaRepo(t.gateway.store.db, t.dataDir);
    const place = media.newPlace();
    await mkdir(path.dirname(place.absolute), { recursive: true });
    writeFileSync(place.absolute, content);
    const file = await media.record(account.accountId, `net-${place.id}`, place, {
      mimeType,
      size: Buffer.byteLength(content),
      sha256: 'not checked here',
    });
    return mediaLink('', t.gateway.secretKey, file.id);
  }

  before(async () => {
    t = await startGateway();
    account = await createAccount(t, 'Headers Co');
  });
  after(async () => t.close());

  test('inert images, audio and video are shown inline, with their type', async () => {
    for (const type of [
      'image/jpeg',
      'image/png',
      'image/webp',
      'image/gif',
      'audio/ogg; codecs=opus',
      'audio/mpeg',
      'video/mp4',
      'video/3gpp',
    ]) {
      const response = await fetch(t.url + (await stored(type, 'bytes')));
      assert.equal(response.status, 200, type);
      assert.equal(response.headers.get('content-type'), type);
      assert.equal(response.headers.get('content-disposition'), 'inline', type);
      assertSandboxed(response, type);
      assert.equal(await response.text(), 'bytes');
    }
  });

  test('HTML, SVG, PDF and unknown types are downloads, never rendered', async () => {
    for (const [type, content] of [
      ['text/html', '<script>parent.name = "ran"</script>'],
      ['TEXT/HTML; charset=utf-8', '<script>parent.name = "ran"</script>'],
      ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['application/pdf', '%PDF-1.4'],
      ['application/x-made-up', '?'],
      ['text/plain', 'hello'],
      ['application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"/>'],
    ] as const) {
      const response = await fetch(t.url + (await stored(type, content)));
      assert.equal(response.status, 200, type);
      assert.equal(response.headers.get('content-disposition'), 'attachment', type);
      assertSandboxed(response, type);
      await response.arrayBuffer();
    }
    const html = await fetch(t.url + (await stored('TEXT/HTML; charset=utf-8', '<p>')));
    assert.equal(html.headers.get('content-type'), 'text/html; charset=utf-8', 'normalised, kept');
  });

  test('a malformed type, or one a page could load as script or style, is served as octet-stream', async () => {
    for (const type of [
      'text/html<script>',
      'image/png\r\nx-injected: 1',
      '',
      'html',
      'text/javascript',
      'application/x-javascript',
      'application/ecmascript',
      'text/css',
    ]) {
      const response = await fetch(t.url + (await stored(type, 'x')));
      assert.equal(response.status, 200, JSON.stringify(type));
      assert.equal(response.headers.get('content-type'), 'application/octet-stream', JSON.stringify(type));
      assert.equal(response.headers.get('content-disposition'), 'attachment', JSON.stringify(type));
      assert.equal(response.headers.get('x-injected'), null);
      assertSandboxed(response, JSON.stringify(type));
      await response.arrayBuffer();
    }
  });

  test('refusals carry the same headers: a bad signature (404), a malformed link (400)', async () => {
    const link = await stored('text/html', '<p>');
    const forged = await fetch(t.url + withTamperedSignature(link));
    assert.equal(forged.status, 404);
    assertSandboxed(forged, 'forged link');
    await forged.arrayBuffer();
    const malformed = await fetch(`${t.url}${link.split('?')[0]}?expires=1`);
    assert.equal(malformed.status, 400);
    assertSandboxed(malformed, 'link without a signature');
    await malformed.arrayBuffer();
  });
});
