/**
 * The one file part of an upload route (template header media, media to send): named `file`, read as it
 * arrives. Whatever goes wrong with the body itself (not multipart, cut off, a bad boundary, another part
 * name) is the client's 400 naming `file`.
 */

import type { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';

const refuse = (message: string) => new GatewayError('invalid_request', message, { field: 'file' });
const unreadable = (error: unknown) =>
  refuse(`the multipart body could not be read: ${(error as Error).message}`);

/** Refuses, naming `file`, a body that is not multipart/form-data (before anything else is checked). */
export function ensureMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) throw refuse('send the file as multipart/form-data in a part named `file`');
}

/**
 * The part named `file`. Its parser hands on at most one byte past `maxBytes` and discards the rest of a
 * larger file; the limit of each kind is enforced while the file is written.
 */
export async function filePart(request: FastifyRequest, maxBytes: number): Promise<MultipartFile> {
  ensureMultipart(request);
  let part: MultipartFile | undefined;
  try {
    part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1 } });
  } catch (error) {
    throw unreadable(error);
  }
  if (part?.fieldname !== 'file') {
    if (part) part.file.resume();
    throw refuse('the multipart body needs a file part named `file`');
  }
  return part;
}

/**
 * The file's bytes as they arrive; a failure of the body itself is the client's 400. A reader that stops
 * early (a refusal mid-file: a line too long, a file of the wrong kind) leaves the rest unread: it is then
 * read and dropped, so that the request ends and the refusal reaches the client, instead of the connection
 * hanging until it is reset.
 */
export async function* clientBytes(file: Readable): AsyncGenerator<Uint8Array> {
  try {
    yield* file.iterator({ destroyOnReturn: false });
  } catch (error) {
    throw unreadable(error);
  } finally {
    file.resume();
  }
}
