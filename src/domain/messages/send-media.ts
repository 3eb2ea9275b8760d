/**
 * Operation 2: media by URL. `mediaType` is case-insensitive; `mediaUrl` an absolute https URL; `caption`
 * only where the network shows one (image, video, document); `filename` only for documents
 * (decisions §3, reference §1.3).
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, refuse, type SendOperation, text } from './send-operation.ts';

const MEDIA_TYPES = ['IMAGE', 'VIDEO', 'AUDIO', 'DOCUMENT', 'STICKER'] as const;
type MediaType = (typeof MEDIA_TYPES)[number];
const CAPTIONED: readonly MediaType[] = ['IMAGE', 'VIDEO', 'DOCUMENT'];

type Body = CommonFields & { mediaType: string; mediaUrl: string; caption?: string; filename?: string };
interface Content {
  mediaType: MediaType;
  mediaUrl: string;
  caption?: string;
  filename?: string;
}

export const sendMedia: SendOperation<Body, Content> = {
  kind: 'media',
  path: '/api/v1/msg/media',
  summary: 'Send an image, video, audio, document or sticker by https URL',
  bodySchema: Type.Object(
    {
      ...commonFields,
      mediaType: text(1, 16),
      mediaUrl: text(1, 2048),
      caption: Type.Optional(text(0, 1024)),
      filename: Type.Optional(text(1, 240)),
    },
    { additionalProperties: false },
  ),
  normalize(body) {
    const mediaType = body.mediaType.toUpperCase() as MediaType;
    if (!MEDIA_TYPES.includes(mediaType)) {
      return refuse('mediaType', `\`mediaType\` must be one of ${MEDIA_TYPES.join(', ')} (any case)`);
    }
    const url = URL.canParse(body.mediaUrl) ? new URL(body.mediaUrl) : undefined;
    if (url?.protocol !== 'https:' || !url.hostname || !body.mediaUrl.startsWith('https://')) {
      return refuse('mediaUrl', '`mediaUrl` must be a valid absolute URL starting with https://');
    }
    if (body.caption !== undefined && !CAPTIONED.includes(mediaType)) {
      return refuse('caption', `\`caption\` is allowed only for ${CAPTIONED.join(', ')}, not ${mediaType}`);
    }
    if (body.filename !== undefined && mediaType !== 'DOCUMENT') {
      return refuse('filename', `\`filename\` is allowed only for DOCUMENT, not ${mediaType}`);
    }
    return ok({
      mediaType,
      mediaUrl: body.mediaUrl,
      ...(body.caption ? { caption: body.caption } : {}),
      ...(body.filename !== undefined ? { filename: body.filename } : {}),
    });
  },
  toCloud(content) {
    const type = content.mediaType.toLowerCase();
    return {
      type,
      [type]: {
        link: content.mediaUrl,
        ...(content.caption !== undefined ? { caption: content.caption } : {}),
        ...(content.filename !== undefined ? { filename: content.filename } : {}),
      },
    };
  },
};
