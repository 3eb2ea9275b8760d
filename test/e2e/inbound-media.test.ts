/**
 * A user's photo: the gateway copies it from the network at once and the `message.received` event
 * carries a signed link to the gateway's own copy, which serves the exact bytes and refuses tampering.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { mediaLink, mediaLinkValid } from '../../src/lib/media-links.ts';
import { mediaRepo } from '../../src/store/media-repo.ts';
import {
  call,
  createAccount,
  eventually,
  joinSandbox,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { withTamperedSignature } from '../support/tamper.ts';

const USER = '254712300888';
/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('inbound media', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
    account = await createAccount(t, 'Media Co');
    await call(t.url, 'POST', '/api/v1/webhooks', { key: account.apiKey, body: { url: receiver.url } });
    await joinSandbox(t, account, USER);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('a photo arrives with a signed link to the gateway copy', async () => {
    const sent = await call(t.url, 'POST', `/simulator/users/${USER}/messages`, {
      body: {
        to: DEFAULT_SANDBOX_NUMBER,
        media: {
          type: 'image',
          mimeType: 'image/png',
          dataBase64: PNG.toString('base64'),
          caption: 'my receipt',
        },
      },
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const event = await eventually(async () => receiver.received.find((r) => r.json.data?.type === 'IMAGE'));
    const image = event.json.data.image;
    assert.equal(image.caption, 'my receipt');
    assert.equal(image.mimeType, 'image/png');
    assert.match(image.url, /\/media\/med_[0-9a-z]+\?expires=\d+&signature=[\w-]+$/);

    const link = new URL(image.url);
    const download = await fetch(`${t.url}${link.pathname}${link.search}`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await download.arrayBuffer());
    assert.equal(
      createHash('sha256').update(bytes).digest('hex'),
      createHash('sha256').update(PNG).digest('hex'),
    );

    const tampered = await fetch(`${t.url}${link.pathname}${withTamperedSignature(link.search)}`);
    assert.equal(tampered.status, 404);
    const otherId = await fetch(`${t.url}/media/med_0000${link.search}`);
    assert.equal(otherId.status, 404);

    // A file gone from disk (a database restored without its media folder) is the same 404, never a 500.
    const library = mediaRepo(t.gateway.store.db, t.dataDir);
    const stored = await library.find(link.pathname.split('/').pop()!);
    rmSync(library.absolutePath(stored!));
    const missing = await fetch(`${t.url}${link.pathname}${link.search}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('cache-control'), null, 'an error is not kept by caches as the file');
  });

  test('links expire', () => {
    const key = Buffer.alloc(32, 7);
    const url = new URL(mediaLink('http://x', key, 'med_1', 1_000));
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    assert.equal(mediaLinkValid(key, 'med_1', expires, signature, 2_000), true);
    assert.equal(mediaLinkValid(key, 'med_1', expires, signature, Number(expires) + 1), false);
    assert.equal(mediaLinkValid(key, 'med_2', expires, signature, 2_000), false);
    assert.equal(mediaLinkValid(Buffer.alloc(32, 8), 'med_1', expires, signature, 2_000), false);
  });
});
