/**
 * Virtual user phones. `POST /users/:phone/messages`: the user writes to a business (text, a tap on a
 * received button or list row or on a template's quick reply, a location, media, a flow's completion, a
 * reaction to a message of the business); the network opens the 24-hour window and posts the
 * signed `messages` webhook (docs/cloud-api.md §3.3, §3.4). `GET /users/:phone/messages`: what the phone
 * received. No Graph auth: this is the user's own phone (the simulator's token when it is private,
 * access-gate.ts). Errors are `{"error": {"message"}}`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import type { BlockedUsers } from './blocked-users.ts';
import type { FlowCatalog } from './flow-catalog.ts';
import type { MediaLinks } from './media-links.ts';
import type { MediaVault } from './media-vault.ts';
import { closedFlowReason } from './phone/flow-screens.ts';
import type { PhoneBook, ReceivedMessage } from './phone-book.ts';
import { renderUserMessage } from './render.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import { simulatorBase } from './routes-media.ts';
import { flowReplyContent } from './user-flow-reply.ts';
import type { UserIds } from './user-ids.ts';
import { USER_MESSAGE_BODY_LIMIT, userMediaContent } from './user-media.ts';
import { reactionContent } from './user-reaction.ts';
import { templateButtonContent } from './user-template-reply.ts';
import { charCount, isObject, type Json } from './validate-fields.ts';
import { messagesEnvelope, newWamid, unixSeconds } from './webhook-envelopes.ts';
import type { WebhookPoster } from './webhook-poster.ts';
import type { WindowTracker } from './window-tracker.ts';

export interface UserRouteDeps {
  phones: PhoneBook;
  windows: WindowTracker;
  poster: WebhookPoster;
  vault: MediaVault;
  links: MediaLinks;
  /** The prefix the simulator is mounted under, for the download links of users' media. */
  prefix: string;
  userIds: UserIds;
  blocked: BlockedUsers;
  /** The flows a completion answers: a deprecated one can no longer be opened, nor completed. */
  flows: FlowCatalog;
  now: () => number;
}

class UserError extends Error {}

function refuse(reply: FastifyReply, message: string) {
  return reply.code(400).send({ error: { message } });
}

/** Unreadable bodies of the users' routes (bad JSON, wrong content type) are a 400 that says so. */
export function userErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if ((error.statusCode ?? 500) < 500) return refuse(reply, `the body could not be read: ${error.message}`);
  request.log.error({ err: error }, 'simulated phone failed');
  return reply.code(500).send({ error: { message: 'the simulated phone failed' } });
}

function phoneParam(request: FastifyRequest): string {
  const raw = pathParam(request.params, 'phone');
  const phone = normalizePhone(raw);
  if (!phone)
    throw new UserError(`\`phone\` in the path is not a valid phone number with country code: "${raw}"`);
  return phone;
}

/** The newest received message from `business` with a reply button or list row `id` (what a tap hits). */
function tapTarget(received: readonly ReceivedMessage[], business: string, id: string) {
  for (let i = received.length - 1; i >= 0; i--) {
    const message = received[i]!;
    if (message.from !== business || message.type !== 'interactive' || message.status === 'failed') continue;
    const interactive = message.content.interactive as Json;
    const action = interactive.action as Json;
    if (interactive.type === 'button') {
      const button = (action.buttons as Json[]).find((b) => (b.reply as Json).id === id);
      if (button) {
        const title = (button.reply as Json).title;
        return { message, interactive: { type: 'button_reply', button_reply: { id, title } } };
      }
    } else if (interactive.type === 'list') {
      for (const section of action.sections as Json[]) {
        const row = (section.rows as Json[]).find((r) => r.id === id);
        if (!row) continue;
        const listReply = {
          id,
          title: row.title,
          ...(row.description ? { description: row.description } : {}),
        };
        return { message, interactive: { type: 'list_reply', list_reply: listReply } };
      }
    }
  }
  return undefined;
}

function locationOf(value: unknown): Json {
  if (!isObject(value)) throw new UserError('`location` must be an object with latitude and longitude');
  const { latitude, longitude, name, address } = value;
  if (typeof latitude !== 'number' || !Number.isFinite(latitude) || Math.abs(latitude) > 90) {
    throw new UserError('`location.latitude` must be a number between -90 and 90');
  }
  if (typeof longitude !== 'number' || !Number.isFinite(longitude) || Math.abs(longitude) > 180) {
    throw new UserError('`location.longitude` must be a number between -180 and 180');
  }
  for (const [key, v] of [
    ['name', name],
    ['address', address],
  ] as const) {
    if (v !== undefined && typeof v !== 'string') throw new UserError(`\`location.${key}\` must be a string`);
  }
  return { latitude, longitude, ...(name ? { name } : {}), ...(address ? { address } : {}) };
}

/**
 * The kinds of message that answer something the phone received, each read by its own module: the
 * inbound content, or what is wrong with the body's field.
 */
const ANSWERS: Record<
  string,
  (value: unknown, received: readonly ReceivedMessage[], business: string) => Json | string
> = {
  flowReply: flowReplyContent,
  templateButton: templateButtonContent,
  reaction: reactionContent,
};

/** The inbound `messages[]` item the user's message becomes (docs/cloud-api.md §3.4), without from/id/timestamp. */
function inboundContent(
  body: Json,
  received: readonly ReceivedMessage[],
  business: string,
  media: { vault: MediaVault; linkFor: (id: string) => string },
): Json {
  const kinds = ['text', 'reply', 'location', 'media', ...Object.keys(ANSWERS)].filter(
    (k) => body[k] !== undefined,
  );
  if (kinds.length !== 1) {
    throw new UserError(
      'send exactly one of `text`, `reply: {id}`, `location`, `media`, `flowReply`, `templateButton` or `reaction`',
    );
  }
  const answer = ANSWERS[kinds[0]!];
  if (answer) {
    const content = answer(body[kinds[0]!], received, business);
    if (typeof content === 'string') throw new UserError(content);
    return content;
  }
  if (body.media !== undefined) {
    const content = userMediaContent(body.media, media.vault, media.linkFor);
    if (typeof content === 'string') throw new UserError(content);
    return content;
  }
  if (body.text !== undefined) {
    if (typeof body.text !== 'string' || body.text === '' || charCount(body.text) > 4096) {
      throw new UserError('`text` must be a string of 1 to 4096 characters');
    }
    return { type: 'text', text: { body: body.text } };
  }
  if (body.location !== undefined) return { type: 'location', location: locationOf(body.location) };
  const id = isObject(body.reply) ? body.reply.id : undefined;
  if (typeof id !== 'string' || id === '') throw new UserError('`reply.id` must be a button or list row id');
  const tapped = tapTarget(received, business, id);
  if (!tapped) {
    throw new UserError(
      `\`reply.id\`: no button or list row with id "${id}" in the messages this phone received from ${business}`,
    );
  }
  return {
    type: 'interactive',
    context: { from: business, id: tapped.message.id },
    interactive: tapped.interactive,
  };
}

/** A completion of a flow the business has deprecated since: WhatsApp no longer opens it. */
function refuseClosedFlow(flows: FlowCatalog, received: readonly ReceivedMessage[], content: Json): void {
  const answered = isObject(content.context) ? content.context.id : undefined;
  const message = received.find((m) => m.id === answered);
  if (!message) return;
  const closed = closedFlowReason(flows, message);
  if (closed) throw new UserError(`\`flowReply\`: ${closed}`);
}

/** What the phone received, from one business number or all, as the message list answers it. */
function receivedBy(deps: UserRouteDeps, request: FastifyRequest) {
  const user = phoneParam(request);
  const from = fieldOf(request.query, 'from');
  const business = typeof from === 'string' ? normalizePhone(from) : undefined;
  if (from !== undefined && !business) throw new UserError('`from` is not a valid phone number');
  const messages = deps.phones.received(user).filter((m) => !business || m.from === business);
  return messages.map((m) => ({
    id: m.id,
    from: m.from,
    type: m.type,
    ...(m.interactiveType ? { interactive_type: m.interactiveType } : {}),
    rendered: m.rendered,
    ...(m.template ? { template: m.template } : {}),
    content: m.content,
    status: m.status,
    timestamp: m.timestamp,
    ...(m.error ? { error: m.error } : {}),
  }));
}

/** The user writes to a business number: recorded on the phone, posted to the business as Meta would. */
/** Who writes to whom, under which profile name: the path's phone and the body's `to` and `profileName`. */
function writerOf(request: FastifyRequest) {
  const user = phoneParam(request);
  const body = request.body;
  if (!isObject(body)) throw new UserError('the body must be a JSON object');
  const business = typeof body.to === 'string' ? normalizePhone(body.to) : null;
  if (!business) throw new UserError('`to` must be the business number, with country code');
  if (business === user) throw new UserError('`to` must not be the phone itself');
  const profileName = body.profileName ?? `User ${user.slice(-4)}`;
  if (typeof profileName !== 'string' || profileName === '' || charCount(profileName) > 256) {
    throw new UserError('`profileName` must be a string of 1 to 256 characters');
  }
  return { user, body, business, profileName };
}

function userWrites(
  deps: UserRouteDeps,
  request: FastifyRequest,
): { id: string; taken: Promise<boolean> | null } {
  const { user, body, business, profileName } = writerOf(request);
  const { username, hideNumber } = identityOf(body);
  // The webhook's download link names the simulator as this request reached it, as the media object does.
  const base = simulatorBase(request, deps.prefix);
  const linkFor = (id: string) => deps.links.urlFor(base, id);
  const received = deps.phones.received(user);
  const content = inboundContent(body, received, business, { vault: deps.vault, linkFor });
  if (body.flowReply !== undefined) refuseClosedFlow(deps.flows, received, content);

  const now = deps.now();
  const id = newWamid(user, 'inbound');
  deps.windows.recordInbound(business, user, now);
  // One queue per (business, user): the business sees a user's messages in the order they were sent.
  deps.phones.recordSent(user, {
    id,
    to: business,
    type: String(content.type),
    rendered: renderUserMessage(content),
    content,
    status: 'sent',
    timestamp: new Date(now).toISOString(),
  });
  // A sandbox join is answered once the business's endpoint took it (or refused it on the first try), so a
  // script's next step, a send to the user who just joined, never races the join.
  const isJoin =
    content.type === 'text' && JOIN.test(String((content.text as { body?: unknown })?.body ?? ''));
  let tookOrRefused: ((accepted: boolean) => void) | undefined;
  const taken = isJoin ? new Promise<boolean>((resolve) => (tookOrRefused = resolve)) : null;
  // A user the business blocked writes into the void: the phone keeps the message, the business hears nothing.
  if (deps.blocked.isBlocked(business, user)) return { id, taken: null };
  // Meta names every user by their business-scoped id too; a user with a username may withhold the
  // number, and then only the id says who wrote (docs/cloud-api.md §10).
  const userId = deps.userIds.idOf(business, user);
  const profile = username ? { name: profileName, username } : { name: profileName };
  deps.poster.enqueue(
    `inbound:${business}:${user}`,
    messagesEnvelope(business, {
      contacts: [hideNumber ? { profile, user_id: userId } : { profile, wa_id: user, user_id: userId }],
      messages: [
        {
          ...(hideNumber ? {} : { from: user }),
          from_user_id: userId,
          id,
          timestamp: unixSeconds(now),
          ...content,
        },
      ],
    }),
    // The business's endpoint took it: the user's phone shows the message as delivered.
    tookOrRefused ? { accepted: { user, id }, onFirstTry: tookOrRefused } : { accepted: { user, id } },
  );
  return { id, taken };
}

/** WhatsApp usernames: 3 to 35 of a-z, 0-9, `.` and `_`. */
const USERNAME = /^[a-z0-9._]{3,35}$/;

/** The user's `username`, and whether they withhold their number (only a user with a username can). */
function identityOf(body: Json): { username: string | undefined; hideNumber: boolean } {
  const { username, hideNumber } = body;
  if (username !== undefined && (typeof username !== 'string' || !USERNAME.test(username))) {
    throw new UserError('`username` must be 3 to 35 characters of a-z, 0-9, `.` and `_`');
  }
  if (hideNumber !== undefined && typeof hideNumber !== 'boolean') {
    throw new UserError('`hideNumber` must be true or false');
  }
  if (hideNumber && username === undefined) {
    throw new UserError(
      '`hideNumber` needs a `username`: only a user with a username can withhold their number',
    );
  }
  return { username, hideNumber: hideNumber === true };
}

/** `join <code>`, as the gateway reads it (docs/sandbox.md). */
const JOIN = /^\s*join\s/i;
/** The longest a join waits for the business's endpoint to answer its first try (one that hangs). */
const JOIN_WAIT_MS = 5000;

/** A timer that never keeps the process alive. */
const delay = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export function registerUserRoutes(app: FastifyInstance, deps: UserRouteDeps): void {
  app.get('/users/:phone/messages', { errorHandler: userErrorHandler }, async (request, reply) => {
    try {
      return { messages: receivedBy(deps, request) };
    } catch (error) {
      if (error instanceof UserError) return refuse(reply, error.message);
      throw error;
    }
  });

  app.post(
    '/users/:phone/messages',
    { errorHandler: userErrorHandler, bodyLimit: USER_MESSAGE_BODY_LIMIT },
    async (request, reply) => {
      try {
        const { id, taken } = userWrites(deps, request);
        if (taken) await Promise.race([taken, delay(JOIN_WAIT_MS)]);
        return reply.code(202).send({ id });
      } catch (error) {
        if (error instanceof UserError) return refuse(reply, error.message);
        throw error;
      }
    },
  );
}
