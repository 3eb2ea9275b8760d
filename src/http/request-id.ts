/**
 * The id of each request (docs/operations.md, Logs): the client's `x-request-id` when it is a plain
 * token, otherwise a new UUID. The id is echoed in the `x-request-id` response header and written to
 * every log line, so anything else a client puts there (markup, control or non-ASCII characters, a
 * kilobyte of text) is replaced rather than repeated back into headers and logs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const PLAIN_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && PLAIN_ID.test(given) ? given : randomUUID();
}
