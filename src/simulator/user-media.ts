/**
 * A photo, video, voice note, document or sticker that a virtual user sends: checked against the network's
 * media rules (docs/cloud-api.md §1.6), kept in the media vault, and turned into the inbound message the business
 * receives (docs/cloud-api.md §3.4: only an `id`, the MIME type and the SHA-256; the bytes are fetched via §5.2).
 */
import type { MediaVault } from './media-vault.ts';
import { charCount, isObject, type Json } from './validate-fields.ts';

const MB = 1024 * 1024;

/** docs/cloud-api.md §1.6. Voice notes are `audio/ogg; codecs=opus`, hence the parameter is allowed on ogg. */
export const USER_MEDIA_RULES = {
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  video: { mimeTypes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * MB },
  audio: {
    mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/ogg; codecs=opus'],
    maxBytes: 16 * MB,
  },
  // A phone attaches any file as a document, whatever its type (an HTML page, an SVG drawing, an archive):
  // these are the common ones; any well-formed type is taken (DOCUMENT_TYPE).
  document: {
    mimeTypes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    // The network takes 100 MB; a JSON body carrying base64 is capped lower (USER_MESSAGE_BODY_LIMIT).
    maxBytes: 100 * MB,
  },
  // 100 KB static, 500 KB animated.
  sticker: { mimeTypes: ['image/webp'], maxBytes: 500 * 1024 },
} as const;

type MediaKind = keyof typeof USER_MEDIA_RULES;

/** Base64 of the largest video (16 MB) plus the rest of the JSON body. */
export const USER_MESSAGE_BODY_LIMIT = 24 * MB;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A media type without parameters (RFC 6838 names). */
const DOCUMENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;

function mimeTypeProblem(kind: MediaKind, mimeType: string): string | null {
  if (kind === 'document') {
    return DOCUMENT_TYPE.test(mimeType)
      ? null
      : '`media.mimeType` for document must be a media type such as application/pdf or text/html';
  }
  const allowed: readonly string[] = USER_MEDIA_RULES[kind].mimeTypes;
  return allowed.includes(mimeType.toLowerCase())
    ? null
    : `\`media.mimeType\` for ${kind} must be one of ${allowed.join(', ')}`;
}
const CAPTIONED = new Set<MediaKind>(['image', 'video', 'document']);

/** The inbound message content, or a sentence saying which field is wrong. */
/** `linkFor` gives the file's short-lived download link, which the webhook carries as Meta's do. */
export function userMediaContent(
  value: unknown,
  vault: MediaVault,
  linkFor: (id: string) => string,
): Json | string {
  if (!isObject(value)) return '`media` must be an object with type, mimeType and dataBase64';
  const { type, mimeType, dataBase64, caption, filename, voice, animated } = value;
  if (typeof type !== 'string' || !Object.hasOwn(USER_MEDIA_RULES, type)) {
    return `\`media.type\` must be one of ${Object.keys(USER_MEDIA_RULES).join(', ')}`;
  }
  const kind = type as MediaKind;
  const rules = USER_MEDIA_RULES[kind];
  if (typeof mimeType !== 'string') return `\`media.mimeType\` is required: the file's media type`;
  const typeProblem = mimeTypeProblem(kind, mimeType);
  if (typeProblem) return typeProblem;
  if (typeof dataBase64 !== 'string' || dataBase64 === '' || !BASE64.test(dataBase64)) {
    return '`media.dataBase64` must be the file content in base64';
  }
  const bytes = Buffer.from(dataBase64, 'base64');
  if (bytes.length === 0) return '`media.dataBase64` decodes to an empty file';
  if (bytes.length > rules.maxBytes) {
    return `\`media.dataBase64\`: a ${kind} may be at most ${rules.maxBytes} bytes; this one is ${bytes.length}`;
  }
  if (caption !== undefined) {
    if (!CAPTIONED.has(kind)) return `\`media.caption\` is allowed for image, video and document only`;
    if (typeof caption !== 'string' || caption === '' || charCount(caption) > 1024) {
      return '`media.caption` must be a string of 1 to 1024 characters';
    }
  }
  if (filename !== undefined) {
    if (kind !== 'document') return '`media.filename` is allowed for document only';
    if (typeof filename !== 'string' || filename === '' || charCount(filename) > 240) {
      return '`media.filename` must be a string of 1 to 240 characters';
    }
  }
  if (voice !== undefined && (kind !== 'audio' || typeof voice !== 'boolean')) {
    return '`media.voice` is a boolean, for audio only';
  }
  if (animated !== undefined && (kind !== 'sticker' || typeof animated !== 'boolean')) {
    return '`media.animated` is a boolean, for sticker only';
  }
  const stored = vault.put(mimeType.toLowerCase(), bytes);
  // A webhook gives the file's SHA-256 in base64, as Meta's do (the media object, in hex: routes-media.ts).
  const sha256 = Buffer.from(stored.sha256, 'hex').toString('base64');
  const object: Json = { id: stored.id, mime_type: stored.mimeType, sha256, url: linkFor(stored.id) };
  if (typeof caption === 'string') object.caption = caption;
  if (kind === 'document') object.filename = typeof filename === 'string' ? filename : 'document';
  if (kind === 'audio') object.voice = voice === true;
  if (kind === 'sticker') object.animated = animated === true;
  return { type: kind, [kind]: object };
}
