/**
 * `POST /{v}/{phone-number-id}/media` (docs/cloud-api.md §5.1): a business uploads a file to send later by
 * its media id. multipart/form-data with `messaging_product=whatsapp`, the `file` part (its content type)
 * and `type` (the MIME type); answered `{"id": "<media id>"}`. The file must be a kind the network carries,
 * within that kind's size (docs/cloud-api.md §1.6): a type the network does not carry is refused as Meta
 * refuses it (100, naming the types it takes), a file past its kind's size with 131053. The file
 * joins the media vault, so `GET` and `DELETE /{v}/{media-id}` (routes-media.ts) reach it, and a send may
 * name it by `id`.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import { graphError, sendGraphError, unknownObjectError } from './graph-errors.ts';
import type { MediaVault } from './media-vault.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import { graphAccessProblem, graphErrorHandler, graphPaths } from './routes-graph.ts';
import { USER_MEDIA_RULES } from './user-media.ts';

/** The largest kind (documents); each kind's own limit is checked once the type is known. */
const UPLOAD_MAX_BYTES = USER_MEDIA_RULES.document.maxBytes;

/** The kind a MIME type uploads as, and that kind's largest file; undefined for a type the network refuses. */
function kindOf(mimeType: string): { kind: string; maxBytes: number } | undefined {
  const type = mimeType.trim().toLowerCase();
  for (const [kind, rule] of Object.entries(USER_MEDIA_RULES)) {
    if ((rule.mimeTypes as readonly string[]).includes(type)) return { kind, maxBytes: rule.maxBytes };
  }
  return undefined;
}

const uploadError = (details: string) => graphError(131053, details);

/** Why the network refuses a file of this type and size, as Meta answers it; undefined when it takes it. */
function fileRefusal(mimeType: string, size: number) {
  const kind = kindOf(mimeType);
  // A type it does not carry is an invalid parameter (100), listing the ones it does.
  if (!kind) {
    const types = Object.values(USER_MEDIA_RULES).flatMap((rule) => rule.mimeTypes);
    const details = `Param file must be a file with one of the following types: ${types.join(', ')}. Received file of type '${mimeType}'.`;
    return graphError(100, details);
  }
  if (size === 0) return uploadError('The file is empty.');
  if (size > kind.maxBytes)
    return uploadError(`The ${kind.kind} is ${size} bytes; the largest ${kind.kind} is ${kind.maxBytes}.`);
  return undefined;
}

export function registerMediaUpload(app: FastifyInstance, deps: { accessToken: string; vault: MediaVault }) {
  // The one multipart route of this scope: its parser stays here, as the flow asset upload's does.
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, fileSize: UPLOAD_MAX_BYTES },
    });
    for (const url of graphPaths('/:phoneNumberId/media')) {
      scope.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
        const access = graphAccessProblem(request, deps.accessToken);
        if (access) return sendGraphError(reply, access);
        const phoneNumberId = pathParam(request.params, 'phoneNumberId');
        if (normalizePhone(phoneNumberId) !== phoneNumberId)
          return sendGraphError(reply, unknownObjectError('post', phoneNumberId));
        if (!request.isMultipart())
          return sendGraphError(reply, graphError(100, 'The media must be sent as multipart/form-data.'));
        const fields: Record<string, string> = {};
        let file: { bytes: Buffer; mimeType: string } | undefined;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'file') {
              const bytes = await part.toBuffer();
              if (part.fieldname === 'file') file = { bytes, mimeType: part.mimetype };
            } else fields[part.fieldname] = String(part.value);
          }
        } catch (error) {
          const tooLarge = (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
          return sendGraphError(
            reply,
            tooLarge
              ? uploadError(
                  `The file is larger than ${UPLOAD_MAX_BYTES} bytes, the largest the network takes.`,
                )
              : graphError(100, 'The multipart body could not be read.'),
          );
        }
        // Graph reads a parameter from the query string as from the form: clients send it either way.
        const product = fields.messaging_product ?? fieldOf(request.query, 'messaging_product');
        if (product !== 'whatsapp')
          return sendGraphError(reply, graphError(100, 'The parameter messaging_product is required.'));
        if (!file) return sendGraphError(reply, graphError(100, 'The parameter file is required.'));
        const mimeType = fields.type ?? file.mimeType;
        const refused = fileRefusal(mimeType, file.bytes.length);
        if (refused) return sendGraphError(reply, refused);
        return { id: deps.vault.put(mimeType.trim().toLowerCase(), file.bytes).id };
      });
    }
  });
}
