/**
 * Operations 13–16 (templates) of the document, under decisions §5: list, create, update, delete (one, or
 * every language of a name) and the upload of header media. List and update answer the document's
 * template envelope (`timestamp: null`, `message: "success"`); create answers it too, with the template.
 */
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { GatewayError } from '../../domain/errors.ts';
import {
  createTemplate,
  deleteTemplate,
  deleteTemplatesByName,
  listTemplates,
  type TemplateDeps,
  updateTemplate,
} from '../../domain/templates/manage-templates.ts';
import { TemplateBody, type TemplateBodyInput } from '../../domain/templates/template-body.ts';
import { TEMPLATE_MEDIA_MAX_BYTES } from '../../domain/templates/template-media.ts';
import { ensureTemplateMediaRoom, storeTemplateMedia } from '../../domain/templates/upload-template-media.ts';
import { success } from '../envelope.ts';

const tags = ['templates'];
const PhoneParams = Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }) });
const TemplateParams = Type.Object({
  phone: Type.String({ minLength: 1, maxLength: 32 }),
  templateId: Type.String({ minLength: 1, maxLength: 64 }),
});
const ListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ maxLength: 32 })),
    name: Type.Optional(Type.String({ maxLength: 512 })),
    language: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);
const DeleteQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);

/** The document's envelope for template list and update: no timestamp, `message: "success"`. */
function templateEnvelope<T>(data: T) {
  return { timestamp: null, data, status: 'success' as const, message: 'success', errors: null };
}

export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  app.get(
    '/api/v1/template/:phone',
    { schema: { tags, summary: 'List templates', params: PhoneParams, querystring: ListQuery } },
    async (request) => {
      const { phone } = request.params as { phone: string };
      const filters = request.query as { status?: string; name?: string; language?: string };
      return templateEnvelope({ data: await listTemplates(deps, request.accountId, phone, filters) });
    },
  );

  app.post(
    '/api/v1/template/:phone',
    { schema: { tags, summary: 'Create a template', params: PhoneParams, body: TemplateBody } },
    async (request) => {
      const { phone } = request.params as { phone: string };
      const body = request.body as TemplateBodyInput;
      return templateEnvelope(await createTemplate(deps, request.accountId, phone, body));
    },
  );

  app.put(
    '/api/v1/template/:phone/:templateId',
    { schema: { tags, summary: 'Update a template', params: TemplateParams, body: TemplateBody } },
    async (request) => {
      const { phone, templateId } = request.params as { phone: string; templateId: string };
      await updateTemplate(deps, request.accountId, phone, templateId, request.body as TemplateBodyInput);
      return templateEnvelope({ success: true, error: null });
    },
  );

  app.delete(
    '/api/v1/template/:phone/:templateId',
    { schema: { tags, summary: 'Delete a template (one language)', params: TemplateParams } },
    async (request) => {
      const { phone, templateId } = request.params as { phone: string; templateId: string };
      await deleteTemplate(deps, request.accountId, phone, templateId);
      return templateEnvelope({ success: true, error: null });
    },
  );

  app.delete(
    '/api/v1/template/:phone',
    {
      schema: {
        tags,
        summary: 'Delete every language of a template name',
        params: PhoneParams,
        querystring: DeleteQuery,
      },
    },
    async (request) => {
      const { phone } = request.params as { phone: string };
      const { name } = request.query as { name: string };
      await deleteTemplatesByName(deps, request.accountId, phone, name);
      return templateEnvelope({ success: true, error: null });
    },
  );

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
