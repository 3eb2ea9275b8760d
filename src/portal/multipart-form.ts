/**
 * A portal form that may carry a file (the template form's header file, an inbox reply's file), sent as
 * multipart/form-data. Its CSRF token is checked here, as the first part (the form puts it first), before
 * any file is read: the portal's usual check (routes.ts) reads a parsed body, which a streamed upload does
 * not have. The file is handed to its `store` as it arrives, never held whole in memory; an empty file
 * input sends nothing.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import { CSRF_FIELD, sameToken } from './auth/csrf.ts';

const LIMITS = { files: 1, fields: 40, fieldSize: 16 * 1024, parts: 41 };

export class CsrfRefused extends Error {}

/** Where a form's file goes: its input's name, its largest size, and what keeps it (answering its id). */
export interface FormFile {
  field: string;
  maxBytes: number;
  store(bytes: AsyncIterable<Uint8Array>, chosen: { mimeType: string; filename: string }): Promise<string>;
}

/** What a form sent: its values, and the id `file.store` gave its file, or why it refused the file. */
export interface FileForm {
  values: unknown;
  file?: string;
  /** The file's refusal (of the wrong kind, too large): told next to its input, with the form kept. */
  fileError?: GatewayError;
}

/**
 * The form's values and the id `file.store` gave its file, if one was chosen. A form sent urlencoded (the
 * browser sends one without a file input so) was parsed, and its token checked, by routes.ts.
 */
export async function readFileForm(
  request: FastifyRequest,
  csrfToken: string,
  file: FormFile,
): Promise<FileForm> {
  if (!request.isMultipart()) return { values: request.body };
  return readMultipart(request, csrfToken, file);
}

/**
 * The file's bytes as they arrive. A reader that stops early (a refusal mid-file) leaves the rest unread:
 * it is read and dropped, never destroyed, so that the form's later parts are read and the answer goes out.
 */
async function* untilDone(file: Readable): AsyncGenerator<Uint8Array> {
  try {
    yield* file.iterator({ destroyOnReturn: false });
  } finally {
    file.resume();
  }
}

async function readMultipart(
  request: FastifyRequest,
  csrfToken: string,
  { field: fileField, maxBytes, store }: FormFile,
): Promise<FileForm> {
  const values: Record<string, string> = {};
  let file: string | undefined;
  let fileError: GatewayError | undefined;
  let checked = false;
  try {
    for await (const part of request.parts({ limits: { ...LIMITS, fileSize: maxBytes + 1 } })) {
      if (!checked) {
        if (part.type !== 'field' || part.fieldname !== CSRF_FIELD || !sameToken(part.value, csrfToken))
          throw new CsrfRefused();
        checked = true;
        continue;
      }
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in values))
          values[part.fieldname] = part.value;
      } else if (part.fieldname === fileField && part.filename && file === undefined && !fileError) {
        try {
          file = await store(untilDone(part.file), { mimeType: part.mimetype, filename: part.filename });
        } catch (error) {
          // The file refused, the rest of the form is still read: it comes back as it was typed.
          if (!(error instanceof GatewayError) || error.status >= 500) throw error;
          fileError = error;
        }
      } else {
        part.file.resume();
      }
    }
  } catch (error) {
    if (error instanceof CsrfRefused || error instanceof GatewayError) throw error;
    throw new GatewayError('invalid_request', `the form could not be read: ${(error as Error).message}`);
  }
  if (!checked) throw new CsrfRefused();
  return { values, ...(file ? { file } : {}), ...(fileError ? { fileError } : {}) };
}
