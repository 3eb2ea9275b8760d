/**
 * The virtual phone page and what it reads, all under the simulator's prefix and without Graph auth (it is
 * the user's own phone, like `/users/:phone/messages`; the simulator's token when private, access-gate.ts):
 * - `GET /phone`, `/phone/app.js` (with the modules it imports), `/phone/phone.css`: the page and its
 *   assets (read once at start).
 * - `GET /users/:phone/chat?with=<business>`: both directions of one chat, oldest first.
 * - `GET /users/:phone/chats`: the business numbers this phone talked with, most recent first.
 * - `GET /users/:phone/media/:id`: a file of the media vault that is part of this phone's chats.
 * - `GET /users/:phone/flows/:messageId`: the screens of a flow message this phone received.
 * The live stream is events.ts. Errors are `{"error": {"message"}}` naming the field.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_SECURITY_HEADERS, mediaServing } from '../../lib/media-serving.ts';
import { normalizePhone } from '../../lib/phone.ts';
import type { FlowCatalog } from '../flow-catalog.ts';
import type { MediaVault } from '../media-vault.ts';
import type { PhoneBook, ReceivedMessage, SentMessage } from '../phone-book.ts';
import { fieldOf, pathParam } from '../request-fields.ts';
import { isObject } from '../validate-fields.ts';
import { phoneFlow } from './flow-screens.ts';
import { phonePage } from './page.ts';
import { chatsOf, chatWith } from './views.ts';

/** The page's script, app.js, and the modules it imports (types.js holds only types, for the checker). */
const SCRIPTS = new Map(
  [
    'app.js',
    'dom.js',
    'rich-text.js',
    'message-view.js',
    'template-view.js',
    'reactions.js',
    'flow-sheet.js',
    'promotions-toggle.js',
  ].map((name) => [name, readFileSync(new URL(`./${name}`, import.meta.url), 'utf8')]),
);
const PHONE_CSS = readFileSync(new URL('./phone.css', import.meta.url), 'utf8');

/** A user number nobody has to type first: a valid Kenyan mobile number, as in the docs. */
export const DEFAULT_PHONE_USER = '254712345678';

export interface PhoneRouteDeps {
  phones: PhoneBook;
  vault: MediaVault;
  flows: FlowCatalog;
  /** The business number the page offers first (the gateway's sandbox number). */
  defaultBusiness: string;
}

/** Media links may point anywhere (the business sends URLs); scripts and styles come only from here. */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src * data: blob:',
  'media-src * data: blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function refuse(reply: FastifyReply, code: number, message: string) {
  return reply.code(code).send({ error: { message } });
}

/** The phone of the path, or undefined after answering 400. */
function userOf(request: FastifyRequest, reply: FastifyReply): string | undefined {
  const raw = pathParam(request.params, 'phone');
  const user = normalizePhone(raw);
  if (!user) {
    void refuse(reply, 400, `\`phone\` in the path is not a valid phone number with country code: "${raw}"`);
    return undefined;
  }
  return user;
}

/** The media ids a message shows: its own file, or a template's header and cards by id. */
function mediaIdsOf(message: ReceivedMessage | SentMessage): string[] {
  const { content } = message;
  const type = content.type;
  const media = typeof type === 'string' ? content[type] : undefined;
  const own = isObject(media) && typeof media.id === 'string' ? [media.id] : [];
  const template = 'template' in message ? message.template : undefined;
  const headers = [template?.header, ...(template?.cards ?? []).map((card) => card.header)];
  return [...own, ...headers.flatMap((h) => (h && 'id' in h && typeof h.id === 'string' ? [h.id] : []))];
}

/** The phone page and its scripts and styles, from memory, never cached as stale. */
function registerPageAssets(app: FastifyInstance, deps: PhoneRouteDeps): void {
  const base = app.prefix;

  app.get('/phone', async (_request, reply) => {
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', PAGE_CSP)
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(phonePage({ base, defaultUser: DEFAULT_PHONE_USER, defaultBusiness: deps.defaultBusiness }));
  });
  for (const [name, source] of SCRIPTS) {
    app.get(`/phone/${name}`, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(source),
    );
  }
  app.get('/phone/phone.css', async (_request, reply) =>
    reply
      .header('content-type', 'text/css; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(PHONE_CSS),
  );
}

/** A phone's chats: one conversation, and the list of them. */
function registerChats(app: FastifyInstance, deps: PhoneRouteDeps): void {
  app.get('/users/:phone/chat', async (request, reply) => {
    const user = userOf(request, reply);
    if (!user) return reply;
    const raw = fieldOf(request.query, 'with');
    const business = typeof raw === 'string' ? normalizePhone(raw) : null;
    if (!business) return refuse(reply, 400, '`with` must be the business number, with country code');
    return {
      business,
      messages: chatWith(deps.phones.received(user), deps.phones.sent(user), business),
    };
  });

  app.get('/users/:phone/chats', async (request, reply) => {
    const user = userOf(request, reply);
    if (!user) return reply;
    return { chats: chatsOf(deps.phones.received(user), deps.phones.sent(user)) };
  });
}

/** What a phone holds: its media files, and the flows it was sent. */
function registerPhoneContent(app: FastifyInstance, deps: PhoneRouteDeps): void {
  app.get('/users/:phone/media/:id', async (request, reply) => {
    const user = userOf(request, reply);
    if (!user) return reply;
    const id = pathParam(request.params, 'id');
    // Only files that are part of this phone's chats: a phone cannot read another phone's media.
    const mine = [...deps.phones.received(user), ...deps.phones.sent(user)].some((m) =>
      mediaIdsOf(m).includes(id),
    );
    const media = mine ? deps.vault.get(id) : undefined;
    if (!media)
      return refuse(reply, 404, `\`id\`: this phone has no media "${id}" (it may have been forgotten)`);
    // Served on the gateway's own origin, as the gateway's own media are (docs/adr/0016-safe-media.md):
    // a file a user or a business sent is shown or downloaded, never loaded as a script or a style sheet.
    const serving = mediaServing(media.mimeType);
    return reply
      .headers(MEDIA_SECURITY_HEADERS)
      .header('content-type', serving.contentType)
      .header('content-disposition', serving.disposition)
      .header('cache-control', 'private, max-age=300')
      .send(media.bytes);
  });

  app.get('/users/:phone/flows/:messageId', async (request, reply) => {
    const user = userOf(request, reply);
    if (!user) return reply;
    const messageId = pathParam(request.params, 'messageId');
    const message = deps.phones
      .received(user)
      .find((m) => m.id === messageId && m.interactiveType === 'flow' && m.status !== 'failed');
    if (!message) {
      return refuse(reply, 404, `\`messageId\`: this phone received no flow message "${messageId}"`);
    }
    const flow = phoneFlow(deps.flows, message);
    if (typeof flow === 'string') return refuse(reply, 404, flow);
    return flow;
  });
}

export function registerPhoneRoutes(app: FastifyInstance, deps: PhoneRouteDeps): void {
  registerPageAssets(app, deps);
  registerChats(app, deps);
  registerPhoneContent(app, deps);
}
