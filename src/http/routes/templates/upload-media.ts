/**
 * `POST /api/v1/template/upload/file`: media for a template header, as multipart/form-data with one part
 * named `file`; the answer is the handle a template's header names.
 */
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../../../domain/errors.ts';
import type { TemplateDeps } from '../../../domain/templates/manage-templates.ts';
import { TEMPLATE_MEDIA_MAX_BYTES } from '../../../domain/templates/template-media.ts';
import {
  ensureTemplateMediaRoom,
  storeTemplateMedia,
} from '../../../domain/templates/upload-template-media.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { tags } from './template-route-shapes.ts';

export function registerUploadTemplateMedia(app: TypedApp, deps: TemplateDeps): void {
  app.post(
    '/api/v1/template/upload/file',
    { schema: { tags, summary: 'Upload media for a template header (multipart, part `file`)' } },
    async (request) => {
      if (!request.isMultipart()) {
        throw new GatewayError(
          'invalid_request',
          'send the file as multipart/form-data in a part named `file`',
          {
            field: 'file',
          },
        );
      }
      // A full quota is refused before the body is read at all.
      await ensureTemplateMediaRoom(deps, request.accountId);
      const part = await fileOf(request);
      const media = await storeTemplateMedia(deps, request.accountId, clientBytes(part.file));
      return success(media.handle);
    },
  );
}

/**
 * The part named `file`. Its parser hands on at most one byte past the largest header file and discards
 * the rest of a larger one; the limit of each kind is enforced while the file is written.
 */
async function fileOf(request: FastifyRequest): Promise<MultipartFile> {
  let part: MultipartFile | undefined;
  try {
    part = await request.file({ limits: { fileSize: TEMPLATE_MEDIA_MAX_BYTES + 1, files: 1 } });
  } catch (error) {
    throw unreadable(error);
  }
  if (part?.fieldname !== 'file') {
    if (part) part.file.resume();
    throw new GatewayError('invalid_request', 'the multipart body needs a file part named `file`', {
      field: 'file',
    });
  }
  return part;
}

/** Whatever the parser raises while the file streams in is a malformed body (cut off, a bad boundary). */
function unreadable(error: unknown): GatewayError {
  return new GatewayError(
    'invalid_request',
    `the multipart body could not be read: ${(error as Error).message}`,
    { field: 'file' },
  );
}

/** The file's bytes as they arrive; a failure of the body itself is the client's 400. */
async function* clientBytes(file: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* file;
  } catch (error) {
    throw unreadable(error);
  }
}
