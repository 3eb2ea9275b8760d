/**
 * Media a virtual user sends: checked against the network's rules (docs/cloud-api.md §1.6), announced by id in the
 * `messages` webhook, and downloadable in two steps (docs/cloud-api.md §5.2) with the Graph token only.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  eventually,
  type Harness,
  inboundHooks,
  request,
  startHarness,
  TOKEN,
  userSays,
  VERSION,
} from './harness.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function inboundMessage(h: Harness, id: string) {
  const hook = await eventually(() => inboundHooks(h).find((x) => x.body.includes(id)));
  return hook.json.entry[0].changes[0].value.messages[0];
}

describe('media from virtual users', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('a document arrives by id and downloads with the token, byte for byte', async () => {
    const sent = await userSays(h, {
      media: {
        type: 'document',
        mimeType: 'application/pdf',
        dataBase64: PDF.toString('base64'),
        filename: 'invoice.pdf',
        caption: 'March',
      },
    });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const message = await inboundMessage(h, sent.body.id);
    assert.equal(message.type, 'document');
    const sha256 = createHash('sha256').update(PDF).digest('hex');
    assert.deepEqual(Object.keys(message.document).sort(), [
      'caption',
      'filename',
      'id',
      'mime_type',
      'sha256',
      'url',
    ]);
    // The webhook's own download link opens the file with the token, as the media object's does.
    const linked = await fetch(message.document.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(linked.status, 200);
    assert.deepEqual(Buffer.from(await linked.arrayBuffer()), PDF);
    // Base64 in the webhook, as Meta's; hex in the media object.
    assert.equal(message.document.sha256, createHash('sha256').update(PDF).digest('base64'));
    assert.equal(message.document.filename, 'invoice.pdf');
    assert.match(message.document.id, /^\d{16}$/);

    const info = await request(`${h.base}/${VERSION}/${message.document.id}`, { token: TOKEN });
    assert.equal(info.status, 200);
    assert.equal(info.body.mime_type, 'application/pdf');
    assert.equal(info.body.file_size, PDF.length);
    assert.equal(info.body.sha256, sha256);

    const withoutToken = await fetch(info.body.url);
    assert.equal(withoutToken.status, 401);
    const download = await fetch(info.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), PDF);

    const forged = await fetch(info.body.url.replace(/signature=[^&]+/, 'signature=forged'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(forged.status, 404);

    const deleted = await request(`${h.base}/${VERSION}/${message.document.id}`, {
      method: 'DELETE',
      token: TOKEN,
    });
    assert.deepEqual(deleted.body, { success: true });
    const gone = await request(`${h.base}/${VERSION}/${message.document.id}`, { token: TOKEN });
    assert.equal(gone.status, 400);
    assert.equal(gone.body.error.code, 100);
  });

  test('a voice note and a sticker carry their flags', async () => {
    const voice = await userSays(h, {
      media: { type: 'audio', mimeType: 'audio/ogg; codecs=opus', dataBase64: 'T2dnUw==', voice: true },
    });
    assert.equal(voice.status, 202, JSON.stringify(voice.body));
    assert.equal((await inboundMessage(h, voice.body.id)).audio.voice, true);
    const sticker = await userSays(h, {
      media: { type: 'sticker', mimeType: 'image/webp', dataBase64: 'UklGRg==' },
    });
    assert.equal(sticker.status, 202, JSON.stringify(sticker.body));
    assert.equal((await inboundMessage(h, sticker.body.id)).sticker.animated, false);
  });

  test('a document may be any file a phone attaches (an HTML page, an SVG drawing), named by a well-formed type', async () => {
    for (const mimeType of ['text/html', 'image/svg+xml', 'application/zip']) {
      const sent = await userSays(h, {
        media: { type: 'document', mimeType, dataBase64: Buffer.from('<p>hi</p>').toString('base64') },
      });
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      assert.equal((await inboundMessage(h, sent.body.id)).document.mime_type, mimeType);
    }
    for (const mimeType of ['text/html; charset=utf-8', 'html', 'text/html<script>', '']) {
      const refused = await userSays(h, { media: { type: 'document', mimeType, dataBase64: 'AA==' } });
      assert.equal(refused.status, 400, mimeType);
      assert.match(refused.body.error.message, /`media\.mimeType` for document must be a media type/);
    }
  });

  test('the media rules of the network, each refused with the field named', async () => {
    const sticker = Buffer.alloc(500 * 1024, 1);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'gif', mimeType: 'image/gif', dataBase64: 'AA==' }, /media\.type/],
      [{ type: 'image', mimeType: 'image/gif', dataBase64: 'AA==' }, /media\.mimeType.*image\/jpeg/],
      [{ type: 'image', mimeType: 'image/png', dataBase64: 'not base64!' }, /media\.dataBase64/],
      [
        { type: 'audio', mimeType: 'audio/aac', dataBase64: 'AA==', caption: 'x' },
        /media\.caption.*image, video/,
      ],
      [{ type: 'image', mimeType: 'image/png', dataBase64: 'AA==', filename: 'a.png' }, /media\.filename/],
      [{ type: 'image', mimeType: 'image/png', dataBase64: 'AA==', caption: 'x'.repeat(1025) }, /1024/],
      [
        {
          type: 'sticker',
          mimeType: 'image/webp',
          dataBase64: Buffer.concat([sticker, Buffer.from([1])]).toString('base64'),
        },
        /at most 512000 bytes/,
      ],
    ];
    for (const [media, pattern] of cases) {
      const r = await userSays(h, { media });
      assert.equal(r.status, 400, JSON.stringify(media).slice(0, 80));
      assert.match(r.body.error.message, pattern);
    }
    const atLimit = await userSays(h, {
      media: { type: 'sticker', mimeType: 'image/webp', dataBase64: sticker.toString('base64') },
    });
    assert.equal(atLimit.status, 202);
    const both = await userSays(h, { text: 'hi', media: { type: 'image' } });
    assert.equal(both.status, 400);
    assert.match(both.body.error.message, /exactly one of/);
  });
});
