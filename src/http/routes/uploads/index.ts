/**
 * Media uploaded to send by id (docs/sending.md#upload-media-to-send-by-id):
 * `POST /api/v1/media/:phone` (multipart/form-data, one part named `file`) answers the upload's `mediaId`,
 * which `POST /api/v1/msg/media` then sends; `DELETE /api/v1/media/:phone/:mediaId` forgets it.
 */
import { Type } from 'typebox';
import {
  deleteOutboundMedia,
  type OutboundMediaDeps,
  uploadOutboundMedia,
} from '../../../domain/outbound-media.ts';
import { OUTBOUND_MEDIA_MAX_BYTES } from '../../../domain/outbound-media-kinds.ts';
import type { OutboundMedia } from '../../../domain/ports/outbound-media.ts';
import { success } from '../../envelope.ts';
import { clientBytes, filePart } from '../../multipart-file.ts';
import type { TypedApp } from '../../typed-app.ts';

const tags = ['media'];
const PhoneParams = Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }) });
const MediaParams = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32 }),
  mediaId: Type.String({ minLength: 1, maxLength: 64 }),
});

/** What a client is told of an upload: the gateway's id, never the network's. */
const view = (media: OutboundMedia) => ({
  mediaId: media.id,
  phone: `+${media.phone}`,
  mediaType: media.mediaType,
  mimeType: media.mimeType,
  size: media.size,
});

export function registerUploadRoutes(app: TypedApp, deps: OutboundMediaDeps): void {
  app.post(
    '/api/v1/media/:phone',
    {
      schema: {
        tags,
        summary: 'Upload media to send by id (multipart, part `file`)',
        description:
          'The file is recognised by its content and must be a kind the network carries, within its size. ' +
          'The answer names it by `mediaId`, for POST /api/v1/msg/media from this number.',
        params: PhoneParams,
      },
    },
    async (request) => {
      const part = await filePart(request, OUTBOUND_MEDIA_MAX_BYTES);
      const media = await uploadOutboundMedia(deps, request.accountId, {
        phone: request.params.phone,
        declaredType: part.mimetype,
        filename: part.filename || 'file',
        source: clientBytes(part.file),
      });
      return success(view(media));
    },
  );

  app.delete(
    // Under its number, as a template is (DELETE /api/v1/template/:phone/:templateId).
    '/api/v1/media/:phone/:mediaId',
    { schema: { tags, summary: 'Delete uploaded media', params: MediaParams } },
    async (request) => {
      await deleteOutboundMedia(deps, request.accountId, request.params.phone, request.params.mediaId);
      return success({ mediaId: request.params.mediaId, deleted: true });
    },
  );
}
