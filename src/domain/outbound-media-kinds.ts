/**
 * What a file to send is, recognised from its content (docs/cloud-api.md §1.6): the kinds the network
 * carries, each with its MIME type, the `mediaType` a send of it names, and its size limit. The first bytes
 * decide; the declared type only chooses among the formats one container holds (an Office file's ZIP or
 * OLE container, plain text, which has no signature), and must agree with the bytes.
 */
import { GatewayError } from './errors.ts';

const KB = 1024;
const MB = 1024 * KB;

export interface OutboundKind {
  mimeType: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'AUDIO' | 'DOCUMENT' | 'STICKER';
  maxBytes: number;
}

/** The largest file of any kind (documents). */
export const OUTBOUND_MEDIA_MAX_BYTES = 100 * MB;
/**
 * Bytes of a file's start that tell its kind: signatures end by byte 11 (a WebP or ISO media brand); plain
 * text is judged on more, as it has no signature.
 */
export const OUTBOUND_HEAD_BYTES = 512;

const at = (b: Buffer, offset: number, ascii: string) =>
  b.length >= offset + ascii.length && b.subarray(offset, offset + ascii.length).toString('latin1') === ascii;
const bytesAt = (b: Buffer, signature: number[]) =>
  b.length >= signature.length && signature.every((x, i) => b[i] === x);

const kind = (mimeType: string, mediaType: OutboundKind['mediaType'], maxBytes: number): OutboundKind => ({
  mimeType,
  mediaType,
  maxBytes,
});

const OFFICE_ZIP = [
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
];
const OFFICE_OLE = ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint'];

/** An ISO base media file (`ftyp` box): its brand tells MP4 video, 3GPP video and M4A audio apart. */
function isoKind(head: Buffer): OutboundKind | undefined {
  if (!at(head, 4, 'ftyp')) return undefined;
  const brand = head.subarray(8, 12).toString('latin1');
  if (brand.startsWith('3gp')) return kind('video/3gpp', 'VIDEO', 16 * MB);
  if (brand === 'M4A ') return kind('audio/mp4', 'AUDIO', 16 * MB);
  if (brand === 'qt  ') return undefined;
  return kind('video/mp4', 'VIDEO', 16 * MB);
}

/** MPEG audio frames (`audio/mpeg`) and ADTS AAC (`audio/aac`) share a frame sync; the layer bits differ. */
function frameKind(head: Buffer): OutboundKind | undefined {
  if (at(head, 0, 'ID3')) return kind('audio/mpeg', 'AUDIO', 16 * MB);
  if (head.length < 2 || head[0] !== 0xff || (head[1]! & 0xe0) !== 0xe0) return undefined;
  const layer = (head[1]! >> 1) & 0b11;
  return layer === 0 ? kind('audio/aac', 'AUDIO', 16 * MB) : kind('audio/mpeg', 'AUDIO', 16 * MB);
}

/** Plain text: no signature, so only when declared, and the start holds no NUL and decodes as UTF-8. */
function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - 3));
    return true;
  } catch {
    return false;
  }
}

function recognise(head: Buffer, declared: string): OutboundKind | undefined {
  if (bytesAt(head, [0xff, 0xd8, 0xff])) return kind('image/jpeg', 'IMAGE', 5 * MB);
  if (bytesAt(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return kind('image/png', 'IMAGE', 5 * MB);
  // Stickers: WebP, up to 500 KB (animated; a static one's 100 KB is the network's to judge).
  if (at(head, 0, 'RIFF') && at(head, 8, 'WEBP')) return kind('image/webp', 'STICKER', 500 * KB);
  if (at(head, 0, 'OggS')) return kind('audio/ogg', 'AUDIO', 16 * MB);
  if (at(head, 0, '#!AMR')) return kind('audio/amr', 'AUDIO', 16 * MB);
  if (at(head, 0, '%PDF-')) return kind('application/pdf', 'DOCUMENT', 100 * MB);
  if (bytesAt(head, [0x50, 0x4b, 0x03, 0x04]))
    return OFFICE_ZIP.includes(declared) ? kind(declared, 'DOCUMENT', 100 * MB) : undefined;
  if (bytesAt(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return OFFICE_OLE.includes(declared) ? kind(declared, 'DOCUMENT', 100 * MB) : undefined;
  const media = isoKind(head) ?? frameKind(head);
  if (media) return media;
  if (declared === 'text/plain' && isText(head)) return kind('text/plain', 'DOCUMENT', 100 * MB);
  return undefined;
}

/**
 * The kind of a file from its first bytes and the type its part declared (parameters ignored), or a 400
 * naming `file` and what is accepted.
 */
export function outboundKind(head: Buffer, declaredType: string): OutboundKind {
  if (head.length === 0) throw new GatewayError('invalid_request', '`file` is empty', { field: 'file' });
  const declared = declaredType.split(';')[0]!.trim().toLowerCase();
  const found = recognise(head, declared);
  if (!found) {
    throw new GatewayError(
      'invalid_request',
      '`file` must be media the network carries, recognised by its content: a JPEG or PNG image, a WebP ' +
        'sticker, an MP4 or 3GPP video, AAC, AMR, MP3, M4A or Ogg audio, or a PDF, Word, Excel, PowerPoint ' +
        'or plain-text document (Office and text files also need their own content type on the part)',
      { field: 'file' },
    );
  }
  return found;
}

/** The 413 for a file past its kind's limit. */
export function outboundTooLarge(found: OutboundKind): GatewayError {
  return new GatewayError(
    'payload_too_large',
    `\`file\`: ${found.mimeType} may be at most ${found.maxBytes} bytes; this file is larger`,
    { field: 'file' },
  );
}
