/**
 * The connector's media download against a stand-in Graph API on loopback: the download URL the media
 * object names passes the webhook URLs' address guard (only the configured Graph base is trusted as it
 * is), and the bytes go to a file as they arrive, with nothing left behind after a failure.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCloudConnector } from '../../src/network/cloud-connector.ts';

const TOKEN = 'graph-token';
const CREDENTIALS = { phoneNumberId: '1000', accessToken: TOKEN };
const BYTES = Buffer.from('the bytes of a photo');
const SHA = createHash('sha256').update(BYTES).digest('hex');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('media downloads', () => {
  let dir: string;
  let graph: Server;
  let graphUrl: string;
  let internal: Server;
  let internalUrl: string;
  /** Requests the service inside the network received: a refused URL must leave it at zero. */
  let internalHits = 0;
  /** What the stand-in Graph API answers for each media id. */
  const objects = new Map<string, Record<string, unknown>>();

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'switchboard-media-download-'));
    internal = createServer((_request, response) => {
      internalHits += 1;
      response.end(BYTES);
    });
    internalUrl = await listen(internal);
    graph = createServer((request, response) => {
      if (request.headers.authorization !== `Bearer ${TOKEN}`) return response.writeHead(401).end();
      // Meta's media URLs have been seen to refuse a download that names no user agent.
      if (!request.headers['user-agent']?.startsWith('Switchboard/')) return response.writeHead(403).end();
      if (request.url === '/files/photo') return response.end(BYTES);
      if (request.url === '/files/big') return response.end(Buffer.alloc(64 * 1024, 1));
      const object = objects.get(request.url?.split('/').pop() ?? '');
      if (!object) return response.writeHead(404).end('{}');
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(object));
    });
    graphUrl = await listen(graph);
  });
  after(async () => {
    graph.close();
    internal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const connector = (allowPrivateMediaUrls = false) =>
    createCloudConnector({ baseUrl: graphUrl, apiVersion: 'v23.0', timeoutMs: 5_000, allowPrivateMediaUrls });
  const object = (url: string, extra: Record<string, unknown> = {}) => ({
    url,
    mime_type: 'image/jpeg',
    sha256: SHA,
    file_size: BYTES.length,
    ...extra,
  });
  let files = 0;
  const newFile = () => path.join(dir, 'media', `file-${++files}`);

  test('a URL on the configured Graph base is fetched, written to the file with its digest', async () => {
    objects.set('1', object(`${graphUrl}/files/photo`));
    const file = newFile();
    const result = await connector().fetchMedia(CREDENTIALS, '1', 1024, file);
    assert.deepEqual(result, {
      ok: true,
      media: { mimeType: 'image/jpeg', size: BYTES.length, sha256: SHA },
    });
    assert.deepEqual(readFileSync(file), BYTES);
  });

  test('private, loopback and plain-http URLs elsewhere are never fetched', async () => {
    const port = new URL(internalUrl).port;
    const refused = [
      `${internalUrl}/secret`,
      `https://127.0.0.1:${port}/secret`,
      `https://localhost:${port}/secret`,
      `https://[::1]:${port}/secret`,
      `https://169.254.169.254/latest/meta-data/`,
      `https://10.0.0.8/secret`,
      'http://cdn.example.com/photo.jpg',
      'not a url',
    ];
    for (const [i, url] of refused.entries()) {
      objects.set(`p${i}`, object(url));
      const file = newFile();
      const result = await connector().fetchMedia(CREDENTIALS, `p${i}`, 1024, file);
      assert.equal(result.ok, false, url);
      if (result.ok) continue;
      assert.equal(result.failure.kind, 'permanent', url);
      assert.equal(result.failure.title, 'media download refused', url);
      assert.match(result.failure.details, /private|https|absolute URL/, url);
      assert.equal(existsSync(file), false, `no file is left for ${url}`);
    }
    assert.equal(internalHits, 0, 'the service inside the network was never reached');

    // The same private URL with private URLs allowed (development): fetched, so the refusal above was the guard.
    const allowed = await connector(true).fetchMedia(CREDENTIALS, 'p0', 1024, newFile());
    assert.equal(allowed.ok, true, JSON.stringify(allowed));
    assert.equal(internalHits, 1);
  });

  test('past the size limit, or with a wrong digest, the download is refused and no file is left', async () => {
    objects.set('big', object(`${graphUrl}/files/big`, { file_size: undefined, sha256: undefined }));
    const big = newFile();
    const tooLarge = await connector().fetchMedia(CREDENTIALS, 'big', 1024, big);
    assert.equal(tooLarge.ok, false);
    assert.equal(!tooLarge.ok && tooLarge.failure.title, 'media too large');
    assert.equal(existsSync(big), false);

    objects.set('bad', object(`${graphUrl}/files/photo`, { sha256: 'f'.repeat(64) }));
    const corrupted = newFile();
    const wrongDigest = await connector().fetchMedia(CREDENTIALS, 'bad', 1024, corrupted);
    assert.equal(!wrongDigest.ok && wrongDigest.failure.title, 'media corrupted');
    assert.equal(existsSync(corrupted), false);

    // A base64 digest, as the network gives it in some answers, is as good as hex.
    objects.set(
      'b64',
      object(`${graphUrl}/files/photo`, { sha256: Buffer.from(SHA, 'hex').toString('base64') }),
    );
    assert.equal((await connector().fetchMedia(CREDENTIALS, 'b64', 1024, newFile())).ok, true);
  });
});
