/**
 * What a file to send is, from its first bytes (src/domain/outbound-media-kinds.ts): every kind the
 * network carries, the declared type deciding only among the formats one container holds, and everything
 * else refused naming `file`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../src/domain/errors.ts';
import { outboundKind } from '../../src/domain/outbound-media-kinds.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const iso = (brand: string) => bytes([0, 0, 0, 0x18], 'ftyp', brand, [0, 0, 0, 0]);
const kindOf = (head: Buffer, declared = 'application/octet-stream') => {
  const found = outboundKind(head, declared);
  return `${found.mediaType} ${found.mimeType} ${found.maxBytes}`;
};

test('signatures tell the kind, whatever the part declared', () => {
  assert.equal(kindOf(bytes([0xff, 0xd8, 0xff, 0xe0])), 'IMAGE image/jpeg 5242880');
  assert.equal(kindOf(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a])), 'IMAGE image/png 5242880');
  assert.equal(kindOf(bytes('RIFF', [1, 0, 0, 0], 'WEBPVP8 ')), 'STICKER image/webp 512000');
  assert.equal(kindOf(iso('isom')), 'VIDEO video/mp4 16777216');
  assert.equal(kindOf(iso('3gp5')), 'VIDEO video/3gpp 16777216');
  assert.equal(kindOf(iso('M4A ')), 'AUDIO audio/mp4 16777216');
  assert.equal(kindOf(bytes('OggS', [0])), 'AUDIO audio/ogg 16777216');
  assert.equal(kindOf(bytes('#!AMR\n')), 'AUDIO audio/amr 16777216');
  assert.equal(kindOf(bytes('ID3', [4, 0])), 'AUDIO audio/mpeg 16777216');
  assert.equal(kindOf(bytes([0xff, 0xfb, 0x90])), 'AUDIO audio/mpeg 16777216');
  assert.equal(kindOf(bytes([0xff, 0xf1, 0x50])), 'AUDIO audio/aac 16777216');
  assert.equal(kindOf(bytes('%PDF-1.7')), 'DOCUMENT application/pdf 104857600');
});

test('Office containers and plain text need their declared type, which must agree with the bytes', () => {
  const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  const zip = bytes('PK', [3, 4, 20, 0]);
  assert.equal(kindOf(zip, `${docx}; charset=binary`), `DOCUMENT ${docx} 104857600`);
  const ole = bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  assert.equal(kindOf(ole, 'application/msword'), 'DOCUMENT application/msword 104857600');
  assert.equal(kindOf(Buffer.from('Opening hours: 7–19 ☕'), 'text/plain'), 'DOCUMENT text/plain 104857600');

  const refused = (head: Buffer, declared: string) =>
    assert.throws(
      () => outboundKind(head, declared),
      (e: unknown) => e instanceof GatewayError && e.status === 400 && e.field === 'file',
    );
  refused(zip, 'application/zip');
  refused(ole, docx);
  refused(zip, 'text/plain');
  refused(bytes('text', [0], 'with a NUL'), 'text/plain');
  refused(Buffer.from('<html><script>alert(1)</script>'), 'text/html');
  refused(Buffer.from('<svg onload="alert(1)">'), 'image/png');
  refused(iso('qt  '), 'video/quicktime');
  refused(Buffer.alloc(0), 'image/png');
});
