/**
 * Operations 13–16 (templates) of the document, under decisions §5: list, create, update, delete (one, or
 * every language of a name) and the upload of header media. List and update answer the document's
 * template envelope (`timestamp: null`, `message: "success"`); create answers it too, with the template.
 */
import type { FastifyInstance } from 'fastify';
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
import { TEMPLATE_MEDIA_MAX_BYTES, templateMediaType } from '../../domain/templates/template-media.ts';
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
      let bytes: Buffer;
      try {
        const part = await request.file({ limits: { fileSize: TEMPLATE_MEDIA_MAX_BYTES, files: 1 } });
        if (part?.fieldname !== 'file') {
          throw new GatewayError('invalid_request', 'the multipart body needs a file part named `file`', {
            field: 'file',
          });
        }
        bytes = await part.toBuffer();
      } catch (error) {
        if (error instanceof GatewayError) throw error;
        const e = error as { code?: string; statusCode?: number; message?: string };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new GatewayError(
            'payload_too_large',
            `\`file\` may be at most ${TEMPLATE_MEDIA_MAX_BYTES / (1024 * 1024)} MB`,
            { field: 'file' },
          );
        }
        // Anything else the parser raises is a malformed body (cut off, a bad boundary): the client's.
        throw new GatewayError('invalid_request', `the multipart body could not be read: ${e.message}`, {
          field: 'file',
        });
      }
      const mimeType = templateMediaType(bytes);
      const media = await deps.templates.storeMedia(request.accountId, mimeType, bytes);
      return success(media.handle);
    },
  );
}
