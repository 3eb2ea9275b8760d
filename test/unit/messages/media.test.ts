/** Operation 2, media by URL (docs/contract.md §3, docs/cloud-api.md §1.3 media). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendMedia } from '../../../src/domain/messages/send-media.ts';
import { accepted, refused, x } from './check.ts';

const image = { mediaType: 'IMAGE', mediaUrl: 'https://cdn.example.com/a.jpg' };
const TYPES_RULE = '`mediaType` must be one of IMAGE, VIDEO, AUDIO, DOCUMENT, STICKER (any case)';
const URL_RULE = '`mediaUrl` must be a valid absolute URL starting with https://';

describe('send media', () => {
  test('mediaType: the five types in any case, normalized to upper case', () => {
    for (const mediaType of ['IMAGE', 'video', 'Audio', 'dOcUmEnT', 'sticker']) {
      assert.equal(accepted(sendMedia, { ...image, mediaType }).mediaType, mediaType.toUpperCase());
    }
  });

  test('mediaType: anything else is refused with the list of types', () => {
    for (const mediaType of ['GIF', '', 'IMAGES', ' IMAGE', 'ımage', 'ſticker', x(10_000)]) {
      assert.equal(refused(sendMedia, { ...image, mediaType }), TYPES_RULE, mediaType.slice(0, 20));
    }
    assert.equal(refused(sendMedia, { ...image, mediaType: 1 }), TYPES_RULE);
    assert.equal(refused(sendMedia, { mediaUrl: image.mediaUrl }), '`mediaType` is required');
  });

  test('mediaUrl: an absolute https URL with a host', () => {
    for (const mediaUrl of [
      'https://cdn.example.com/a.jpg',
      'HTTPS://CDN.EXAMPLE.COM/A.JPG',
      'https://example.com:8443/a.jpg?sig=abc%20def&x=1',
      `https://example.com/${x(2048 - 'https://example.com/'.length)}`,
    ]) {
      assert.equal(accepted(sendMedia, { ...image, mediaUrl }).mediaUrl, mediaUrl);
    }
  });

  test('mediaUrl: anything else is refused, saying it must start with https://', () => {
    for (const mediaUrl of [
      'http://example.com/a.jpg',
      '/a.jpg',
      'example.com/a.jpg',
      'https:example.com/a.jpg',
      'https://',
      'ftp://example.com/a.jpg',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      ' https://example.com/a.jpg',
    ]) {
      assert.equal(refused(sendMedia, { ...image, mediaUrl }), URL_RULE, mediaUrl);
    }
    assert.match(
      refused(sendMedia, { ...image, mediaUrl: 'https://example.com/a b.jpg' }),
      /^`mediaUrl` must not contain spaces/,
    );
    assert.match(refused(sendMedia, { ...image, mediaUrl: 'https://example.com/a\tb.jpg' }), /^`mediaUrl`/);
    assert.equal(
      refused(sendMedia, {
        ...image,
        mediaUrl: `https://example.com/${x(2049 - 'https://example.com/'.length)}`,
      }),
      '`mediaUrl` must be at most 2048 characters',
    );
    assert.equal(refused(sendMedia, { ...image, mediaUrl: '' }), '`mediaUrl` must not be empty');
    assert.equal(
      refused(sendMedia, { ...image, mediaUrl: { href: 'https://x.com' } }),
      '`mediaUrl` must be a string',
    );
  });

  test('caption: at most 1024 characters, for IMAGE, VIDEO and DOCUMENT only', () => {
    for (const mediaType of ['IMAGE', 'video', 'DOCUMENT']) {
      assert.equal(accepted(sendMedia, { ...image, mediaType, caption: x(1024) }).caption, x(1024));
      assert.equal(
        refused(sendMedia, { ...image, mediaType, caption: x(1025) }),
        '`caption` must be at most 1024 characters',
      );
    }
    for (const mediaType of ['AUDIO', 'sticker']) {
      assert.equal(
        refused(sendMedia, { ...image, mediaType, caption: 'x' }),
        `\`caption\` is allowed only for IMAGE, VIDEO, DOCUMENT, not ${mediaType.toUpperCase()}`,
      );
    }
  });

  test('an empty caption is no caption, for every type', () => {
    assert.deepEqual(accepted(sendMedia, { ...image, caption: '' }), image);
    assert.deepEqual(accepted(sendMedia, { ...image, mediaType: 'AUDIO', caption: '' }), {
      ...image,
      mediaType: 'AUDIO',
    });
  });

  test('filename: 1 to 240 characters, for DOCUMENT only', () => {
    const doc = { mediaType: 'document', mediaUrl: 'https://example.com/a.pdf' };
    assert.equal(accepted(sendMedia, { ...doc, filename: x(240) }).filename, x(240));
    assert.equal(
      refused(sendMedia, { ...doc, filename: x(241) }),
      '`filename` must be at most 240 characters',
    );
    assert.equal(refused(sendMedia, { ...doc, filename: '' }), '`filename` must not be empty');
    for (const mediaType of ['IMAGE', 'VIDEO', 'AUDIO', 'STICKER']) {
      assert.equal(
        refused(sendMedia, { ...image, mediaType, filename: 'a.pdf' }),
        `\`filename\` is allowed only for DOCUMENT, not ${mediaType}`,
      );
    }
  });

  test('toCloud: the lower-case type with a link, caption and filename where given', () => {
    assert.deepEqual(
      sendMedia.toCloud({ mediaType: 'IMAGE', mediaUrl: 'https://e.com/a.jpg', caption: 'Hi' }, {}),
      {
        type: 'image',
        image: { link: 'https://e.com/a.jpg', caption: 'Hi' },
      },
    );
    assert.deepEqual(
      sendMedia.toCloud(
        {
          mediaType: 'DOCUMENT',
          mediaUrl: 'https://e.com/a.pdf',
          caption: 'Invoice',
          filename: 'inv-42.pdf',
        },
        {},
      ),
      {
        type: 'document',
        document: { link: 'https://e.com/a.pdf', caption: 'Invoice', filename: 'inv-42.pdf' },
      },
    );
    for (const type of ['video', 'audio', 'sticker']) {
      const content = accepted(sendMedia, { mediaType: type, mediaUrl: 'https://e.com/m' });
      assert.deepEqual(sendMedia.toCloud(content, {}), { type, [type]: { link: 'https://e.com/m' } });
    }
  });
});
