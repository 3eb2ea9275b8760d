/**
 * Operation 2: media by URL, or by the id of an upload (docs/sending.md#upload-media-to-send-by-id).
 * `mediaType` is case-insensitive; exactly one of `mediaUrl` (an absolute https URL) and `mediaId`;
 * `caption` only where the network shows one (image, video, document); `filename` only for documents
 * (docs/contract.md §3, docs/cloud-api.md §1.3). Which network media an id names is resolved by the send
 * pipeline (src/domain/outbound-media.ts `mediaToSend`).
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, refuse, type SendOperation, text } from './send-operation.ts';

const MEDIA_TYPES = ['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'STICKER'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];
const CAPTIONED: readonly MediaType[] = ['IMAGE', 'VIDEO', 'DOCUMENT'];
const MEDIA_TYPE_RULE = `must be one of ${MEDIA_TYPES.join(', ')} (any case)`;

/**
 * `image`, `Image`, `IMAGE`... spelled letter by letter rather than by upper-casing, because
 * `toUpperCase` also maps look-alikes (`ımage`, `ſticker`) onto the names.
 */
const MEDIA_TYPE_PATTERN = `^(${MEDIA_TYPES.map((t) =>
  [...t].map((c) => `[${c}${c.toLowerCase()}]`).join(''),
).join('|')})$`;
const MEDIA_TYPE = new RegExp(MEDIA_TYPE_PATTERN);

/** Whitespace and control characters are not URL characters; the network's fetcher would choke on them. */
const UNSAFE_URL_CHARACTER = /[\s\p{Cc}]/u;

type Body = CommonFields & {
  mediaType: string;
  mediaUrl?: string;
  mediaId?: string;
  caption?: string;
  filename?: string;
};
export type MediaContent = {
  mediaType: MediaType;
  caption?: string;
  filename?: string;
} & ({ mediaUrl: string; mediaId?: never } | { mediaId: string; mediaUrl?: never });

/** The gateway's ids of uploads (src/lib/ids.ts, prefix `upl`). */
const UPLOAD_ID = /^upl_[0-9a-z]{26}$/;

const bodySchema = Type.Object(
  {
    ...commonFields,
    mediaType: Type.String({ pattern: MEDIA_TYPE_PATTERN, 'x-rule': MEDIA_TYPE_RULE }),
    // 2048: the longest URL browsers and CDNs reliably pass on; a longer one is a mistake, not media.
    mediaUrl: Type.Optional(
      text(1, 2048, { description: 'absolute URL starting with https://, fetched by the network' }),
    ),
    mediaId: Type.Optional(
      text(1, 64, {
        description: 'the `mediaId` of an upload (POST /api/v1/media/{phone_number}), instead of mediaUrl',
      }),
    ),
    caption: Type.Optional(text(0, 1024, { description: 'IMAGE, VIDEO and DOCUMENT only' })),
    filename: Type.Optional(text(1, 240, { description: 'DOCUMENT only: the name the user sees' })),
  },
  { additionalProperties: false },
);

export const sendMedia: SendOperation<Body, MediaContent, typeof bodySchema> = {
  kind: 'media',
  summary: 'Send an image, video, audio, document or sticker by https URL or uploaded media id',
  bodySchema,
  normalize(body) {
    const mediaType = MEDIA_TYPE.test(body.mediaType)
      ? (body.mediaType.toUpperCase() as MediaType)
      : undefined;
    if (!mediaType) return refuse('mediaType', `\`mediaType\` ${MEDIA_TYPE_RULE}`);
    const source = mediaSource(body);
    if ('field' in source) return refuse(source.field, source.message);
    // An empty caption is no caption: forms often send the field blank, and it asks for nothing.
    const caption = body.caption || undefined;
    if (caption !== undefined && !CAPTIONED.includes(mediaType)) {
      return refuse('caption', `\`caption\` is allowed only for ${CAPTIONED.join(', ')}, not ${mediaType}`);
    }
    if (body.filename !== undefined && mediaType !== 'DOCUMENT') {
      return refuse('filename', `\`filename\` is allowed only for DOCUMENT, not ${mediaType}`);
    }
    return ok({
      mediaType,
      ...source,
      ...(caption !== undefined ? { caption } : {}),
      ...(body.filename !== undefined ? { filename: body.filename } : {}),
    });
  },
  toCloud(content, context) {
    const type = content.mediaType.toLowerCase();
    const networkMediaId = context.media?.networkMediaId;
    return {
      type,
      [type]: {
        ...(networkMediaId !== undefined ? { id: networkMediaId } : { link: content.mediaUrl }),
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
        ...(content.filename !== undefined ? { filename: content.filename } : {}),
      },
    };
  },
};

/**
 * Where the media comes from: exactly one of a URL and an upload's id, each checked; `prefix` names where
 * the two fields sit in the body (a template header's, say), so a refusal names the field as sent.
 */
export function mediaSource(
  body: { mediaUrl?: string | undefined; mediaId?: string | undefined },
  prefix = '',
): { mediaUrl: string } | { mediaId: string } | { field: string; message: string } {
  const url = `${prefix}mediaUrl`;
  const id = `${prefix}mediaId`;
  if (body.mediaUrl !== undefined && body.mediaId !== undefined)
    return { field: id, message: `give either \`${url}\` or \`${id}\`, not both` };
  if (body.mediaId !== undefined) {
    return UPLOAD_ID.test(body.mediaId)
      ? { mediaId: body.mediaId }
      : {
          field: id,
          message: `\`${id}\` must be the id of an upload (upl_…), as POST /api/v1/media answered it`,
        };
  }
  if (body.mediaUrl === undefined)
    return { field: url, message: `\`${url}\` is required (or \`${id}\`, the id of an upload)` };
  const parsed = URL.canParse(body.mediaUrl) ? new URL(body.mediaUrl) : undefined;
  // `https:example.com` parses too (the scheme is special), so the literal prefix is checked as well.
  if (parsed?.protocol !== 'https:' || !parsed.hostname || !/^https:\/\//i.test(body.mediaUrl))
    return { field: url, message: `\`${url}\` must be a valid absolute URL starting with https://` };
  if (UNSAFE_URL_CHARACTER.test(body.mediaUrl)) {
    return {
      field: url,
      message: `\`${url}\` must not contain spaces or control characters; encode a space as %20`,
    };
  }
  // Sent as given, not re-serialized: a signed URL must reach the network byte for byte.
  return { mediaUrl: body.mediaUrl };
}
