/**
 * Files for template media headers (docs/contract.md §5, operation 16): JPEG or PNG images, MP4 videos and PDF
 * documents only, recognised by their content (magic bytes), never by the name or the declared type, with
 * Meta's size limits for each kind (docs/cloud-api.md §1.6).
 */
import { GatewayError } from '../errors.ts';

const MB = 1024 * 1024;

export const TEMPLATE_MEDIA_MAX_BYTES = 100 * MB;

export interface TemplateMediaKind {
  mimeType: string;
  maxBytes: number;
  matches(bytes: Buffer): boolean;
}

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const KINDS: TemplateMediaKind[] = [
  { mimeType: 'image/jpeg', maxBytes: 5 * MB, matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    mimeType: 'image/png',
    maxBytes: 5 * MB,
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  // An ISO base media file: a `ftyp` box first; 3GP and QuickTime brands are not MP4.
  {
    mimeType: 'video/mp4',
    maxBytes: 16 * MB,
    matches: (b) =>
      startsWith(b, [0x66, 0x74, 0x79, 0x70], 4) &&
      !['3gp', 'qt '].some((brand) => b.subarray(8, 8 + brand.length).toString('latin1') === brand),
  },
  {
    mimeType: 'application/pdf',
    maxBytes: 100 * MB,
    matches: (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  },
];

/** Bytes of a file's start that tell its kind (an ISO media brand ends at byte 11). */
export const TEMPLATE_MEDIA_HEAD_BYTES = 12;

/** The file's kind from its first bytes, or a 400 saying what is accepted. */
export function templateMediaKind(head: Buffer): TemplateMediaKind {
  if (head.length === 0) {
    throw new GatewayError('invalid_request', '`file` is empty', { field: 'file' });
  }
  const kind = KINDS.find((k) => k.matches(head));
  if (!kind) {
    throw new GatewayError(
      'invalid_request',
      '`file` must be a JPEG or PNG image, an MP4 video or a PDF document (recognised by its content)',
      { field: 'file' },
    );
  }
  return kind;
}

/** The 413 for a file past its kind's limit. */
export function templateMediaTooLarge(kind: TemplateMediaKind): GatewayError {
  return new GatewayError(
    'payload_too_large',
    `\`file\`: a ${kind.mimeType} header may be at most ${kind.maxBytes / MB} MB (${kind.maxBytes} bytes); this file is larger`,
    { field: 'file' },
  );
}
