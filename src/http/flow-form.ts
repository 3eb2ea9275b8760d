/**
 * Reads the multipart body of flow create and update (operation 9, docs/contract.md §4): text parts
 * `phoneNumber`, `name`, `categories` and one `file` part holding Flow JSON. Limits are this route's own
 * (the api scope's multipart defaults are smaller); every refusal is a 400 naming the part and the rule.
 */
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import type { FlowParts } from '../domain/flows/flow-service.ts';
import { FLOW_JSON_MAX_BYTES } from '../lib/flow-json/file-size.ts';

/** Enough for a 200-character name in any script (4 bytes a character in the worst case). */
const TEXT_PART_MAX_BYTES = 1024;
const TEXT_PARTS = ['phoneNumber', 'name', 'categories'] as const;
const KNOWN =
  'the parts are `phoneNumber`, `name`, `categories` and `file` (a .json file), each at most once';

function refuse(field: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { field });
}

/** @fastify/multipart's limit errors, in words naming what to change. */
function limitError(error: unknown): GatewayError | undefined {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return refuse('file', `\`file\` must be at most ${FLOW_JSON_MAX_BYTES} bytes`);
    case 'FST_FILES_LIMIT':
      return refuse('file', `only one file part is accepted; ${KNOWN}`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return refuse('body', `too many parts; ${KNOWN}`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return refuse('body', `the body must be multipart/form-data; ${KNOWN}`);
    case 'FST_PROTO_VIOLATION':
      return refuse('body', `a part name is not allowed; ${KNOWN}`);
    default:
      return undefined;
  }
}

function utf8Text(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse('file', '`file` must be a UTF-8 text file holding Flow JSON');
  }
}

export async function readFlowParts(request: FastifyRequest): Promise<FlowParts> {
  if (!request.isMultipart()) throw refuse('body', `the body must be multipart/form-data; ${KNOWN}`);
  const parts: FlowParts = {};
  const seen = new Set<string>();
  try {
    for await (const part of request.parts({
      limits: {
        files: 1,
        // One text part more than the form has, so the first surplus part (unknown or repeated) is read
        // and named below instead of ending in a bare "too many parts".
        fields: TEXT_PARTS.length + 1,
        parts: TEXT_PARTS.length + 2,
        fieldSize: TEXT_PART_MAX_BYTES,
        fileSize: FLOW_JSON_MAX_BYTES,
      },
    })) {
      const name = part.fieldname;
      if (seen.has(name)) throw refuse(name, `\`${name}\` was sent twice; ${KNOWN}`);
      seen.add(name);
      if (part.type === 'file') {
        if (name !== 'file') throw refuse(name, `\`${name}\` must be a text part, not a file; ${KNOWN}`);
        if (!/\.json$/i.test(part.filename)) {
          throw refuse('file', `\`file\` must be a .json file (got "${part.filename}")`);
        }
        parts.flowJson = utf8Text(await part.toBuffer());
        continue;
      }
      if (name === 'file') throw refuse('file', '`file` must be a file part (a .json file), not text');
      if (!(TEXT_PARTS as readonly string[]).includes(name)) {
        throw refuse(name, `\`${name}\` is not a known part; ${KNOWN}`);
      }
      if (part.valueTruncated) throw refuse(name, `\`${name}\` must be at most ${TEXT_PART_MAX_BYTES} bytes`);
      parts[name as (typeof TEXT_PARTS)[number]] = String(part.value);
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    // Anything else the parser raises is a malformed body (a cut-off form, a bad boundary): the client's.
    throw (
      limitError(error) ??
      refuse('body', `the multipart body could not be read (${(error as Error).message}); ${KNOWN}`)
    );
  }
  return parts;
}
