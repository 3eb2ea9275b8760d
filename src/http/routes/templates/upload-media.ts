/**
 * `POST /api/v1/template/upload/file`: media for a template header, as multipart/form-data with one part
 * named `file`; the answer is the handle a template's header names.
 */
import type { TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import { TEMPLATE_MEDIA_MAX_BYTES } from '../../../domain/templates/template-media.ts';
import {
  ensureTemplateMediaRoom,
  storeTemplateMedia,
} from '../../../domain/templates/upload-template-media.ts';
import { success } from '../../envelope.ts';
import { clientBytes, ensureMultipart, filePart } from '../../multipart-file.ts';
import type { TypedApp } from '../../typed-app.ts';
import { tags } from './template-route-shapes.ts';

export function registerUploadTemplateMedia(app: TypedApp, deps: TemplateDeps): void {
  app.post(
    '/api/v1/template/upload/file',
    { schema: { tags, summary: 'Upload media for a template header (multipart, part `file`)' } },
    async (request) => {
      ensureMultipart(request);
      // A full quota is refused before the body is read at all.
      await ensureTemplateMediaRoom(deps, request.accountId);
      const part = await filePart(request, TEMPLATE_MEDIA_MAX_BYTES);
      const media = await storeTemplateMedia(deps, request.accountId, clientBytes(part.file));
      return success(media.handle);
    },
  );
}
