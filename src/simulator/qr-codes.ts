/**
 * Message QR codes (`/{phone-number-id}/message_qrdls`, docs/cloud-api.md §11): a business number's links
 * that open a chat with a message already typed. Create, list, read, change the message, delete; the
 * prefilled message may come in the query string or the JSON body, as clients send it either way. Each
 * code's deep link is `https://wa.me/message/<code>`; no image is drawn (`qr_image_url` is left out).
 * Kept in the state journal like the rest of the network.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type GraphError,
  graphError,
  isGraphError,
  sendGraphError,
  unknownObjectError,
} from './graph-errors.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import { graphErrorHandler, graphPaths, numberInPath } from './routes-graph.ts';
import type { StateJournal } from './state/journal.ts';

export interface QrCode {
  code: string;
  prefilled_message: string;
  deep_link_url: string;
}

/** The journal's kind, keyed by `<business>:<code>`. */
export const QR_KIND = 'qr-code';
/** Meta's limit on a prefilled message. */
const MAX_MESSAGE = 140;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export class QrCodes {
  /** `<business>:<code>` → the code, in creation order. */
  readonly #codes = new Map<string, QrCode>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  restore(records: { key: string; value: QrCode }[]): void {
    for (const { key, value } of records) this.#codes.set(key, value);
  }

  create(business: string, message: string): QrCode {
    let code: string;
    do code = Array.from({ length: 14 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    while (this.#codes.has(`${business}:${code}`));
    return this.save(business, {
      code,
      prefilled_message: message,
      deep_link_url: `https://wa.me/message/${code}`,
    });
  }

  save(business: string, qr: QrCode): QrCode {
    this.#codes.set(`${business}:${qr.code}`, qr);
    this.#journal.put(QR_KIND, `${business}:${qr.code}`, qr);
    return qr;
  }

  get(business: string, code: string): QrCode | undefined {
    return this.#codes.get(`${business}:${code}`);
  }

  list(business: string): QrCode[] {
    return [...this.#codes.entries()].filter(([key]) => key.startsWith(`${business}:`)).map(([, qr]) => qr);
  }

  delete(business: string, code: string): boolean {
    this.#journal.remove(QR_KIND, `${business}:${code}`);
    return this.#codes.delete(`${business}:${code}`);
  }
}

export interface QrRouteDeps {
  accessToken: string;
  codes: QrCodes;
}

/** `prefilled_message` from the query string or the JSON body, within Meta's limit. */
function messageOf(request: FastifyRequest): string | GraphError {
  const message = fieldOf(request.query, 'prefilled_message') ?? fieldOf(request.body, 'prefilled_message');
  if (typeof message !== 'string' || message.trim() === '' || message.length > MAX_MESSAGE) {
    return graphError(100, `Parameter 'prefilled_message' must be a text of 1 to ${MAX_MESSAGE} characters.`);
  }
  return message;
}

function codeOf(deps: QrRouteDeps, request: FastifyRequest, business: string): QrCode | GraphError {
  const code = pathParam(request.params, 'code');
  return deps.codes.get(business, code) ?? unknownObjectError('get', code);
}

export function registerQrRoutes(app: FastifyInstance, deps: QrRouteDeps): void {
  for (const url of graphPaths('/:id/message_qrdls')) {
    app.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const business = numberInPath(request, deps.accessToken, 'post');
      if (isGraphError(business)) return sendGraphError(reply, business);
      const message = messageOf(request);
      if (isGraphError(message)) return sendGraphError(reply, message);
      return deps.codes.create(business, message);
    });
    // The list is read with or without a trailing slash (clients ask for `.../message_qrdls/` + no code).
    for (const listUrl of [url, `${url}/`]) {
      app.get(listUrl, { errorHandler: graphErrorHandler }, async (request, reply) => {
        const business = numberInPath(request, deps.accessToken, 'get');
        if (isGraphError(business)) return sendGraphError(reply, business);
        return { data: deps.codes.list(business) };
      });
    }
  }
  for (const url of graphPaths('/:id/message_qrdls/:code')) {
    app.get(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const business = numberInPath(request, deps.accessToken, 'get');
      if (isGraphError(business)) return sendGraphError(reply, business);
      const qr = codeOf(deps, request, business);
      return isGraphError(qr) ? sendGraphError(reply, qr) : { data: [qr] };
    });
    app.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const business = numberInPath(request, deps.accessToken, 'post');
      if (isGraphError(business)) return sendGraphError(reply, business);
      const qr = codeOf(deps, request, business);
      if (isGraphError(qr)) return sendGraphError(reply, qr);
      const message = messageOf(request);
      if (isGraphError(message)) return sendGraphError(reply, message);
      return deps.codes.save(business, { ...qr, prefilled_message: message });
    });
    app.delete(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const business = numberInPath(request, deps.accessToken, 'post');
      if (isGraphError(business)) return sendGraphError(reply, business);
      const qr = codeOf(deps, request, business);
      if (isGraphError(qr)) return sendGraphError(reply, qr);
      deps.codes.delete(business, qr.code);
      return { success: true };
    });
  }
}
