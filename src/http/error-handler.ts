/**
 * Maps every error to its wire shape, in exactly one place. Domain errors carry their status; schema
 * violations become 400s naming the field and rule; an unexpected error is a 500 whose details go to the
 * log only.
 */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import { firstAjvMessage } from '../lib/request-validation.ts';
import { failure, invalidCredentials, malformedSend } from './envelope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Send operations answer malformed requests in the `Bad Request` shape of docs/contract.md, not the envelope. */
    sendOperation?: boolean;
  }
}

/** Flow management failures start with `Request failed.` and then say why (docs/contract.md §2, §4). */
function reason(request: FastifyRequest, message: string): string {
  return request.routeOptions.url?.startsWith('/api/v1/msg/manage/flow')
    ? `Request failed. ${message}`
    : message;
}

function badRequest(request: FastifyRequest, reply: FastifyReply, message: string) {
  const path = request.url.split('?')[0] ?? request.url;
  if (request.routeOptions.config?.sendOperation) return reply.code(400).send(malformedSend(path, message));
  return reply.code(400).send(failure(reason(request, message)));
}

/**
 * A 415's words: the type the request named (printable characters only, cut short: it is the client's
 * text, echoed) and the one to send. Fastify's own message no longer names the type.
 */
function unsupportedType(request: FastifyRequest): string {
  const named = String(request.headers['content-type'] ?? '')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 100);
  return `Content-Type ${named || '(none)'} is not supported; send application/json`;
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large), in words a client can act on. */
function describeFastifyClientError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'the request body is empty; send a JSON object'
        : 'the request body is not valid JSON';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Content-Length does not match the body';
    default:
      return error.message;
  }
}

/**
 * Errors the router raises before any route runs (a malformed URL, a path segment over the router's
 * length limit): Fastify's option `frameworkErrors`, answered in the envelope like every other error.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a path segment of the URL is too long'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'the URL is malformed'
        : 'the request could not be routed';
  reply.code(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400).send(failure(message));
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a CR, LF or NUL inside a header, a
 * malformed request line, headers too large): answered in the envelope, then the connection is closed,
 * since after a parse error the rest of its bytes cannot be trusted.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // The status line is written here, with its reason phrase. (node:http's STATUS_CODES would say the same,
  // but importing node:http from an ES module loads Node's fetch with it, at every start: smtp-mailer.ts.)
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'the request was not received in time']
        : [
            400,
            'Bad Request',
            'the request is not valid HTTP: a header holds a forbidden character (CR, LF or NUL) or the request line is malformed',
          ];
  if (socket.writable) {
    const body = JSON.stringify(failure(message));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Says where a refused field was, in the words of a URL rather than Fastify's (`querystring`, `params`). */
const WHERE: Record<string, string> = {
  body: '',
  querystring: 'query parameter ',
  params: 'path parameter ',
  headers: 'header ',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof GatewayError) {
      if (error.code === 'unauthenticated') return reply.code(401).send(invalidCredentials());
      if (error.status === 400) return badRequest(request, reply, error.message);
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.code(error.status).send(failure(reason(request, error.message)));
    }
    if (error.validation) {
      const where = WHERE[error.validationContext ?? 'body'] ?? '';
      return badRequest(request, reply, where + firstAjvMessage(error.validation));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply
        .code(413)
        .send(failure(`the request body is larger than the ${request.routeOptions.bodyLimit} bytes allowed`));
    }
    if (status === 415) return reply.code(415).send(failure(reason(request, unsupportedType(request))));
    if (status >= 400 && status < 500) return badRequest(request, reply, describeFastifyClientError(error));
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(failure('internal error; the failure was logged'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(failure(`no route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
