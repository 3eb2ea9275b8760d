/**
 * The simulated Graph API (docs/cloud-api.md §1, §8): `POST /{version}/{phone-number-id}/messages` (send or mark
 * as read) and `GET /{version}/{phone-number-id}`. A phone-number id is the business number's own E.164
 * digits, so any valid number is a business on this network and no registry is needed.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import { sameSecret } from '../lib/same-secret.ts';
import { businessObject } from './account-object.ts';
import type { AccountRestrictions } from './account-restrictions.ts';
import type { FlowCatalog } from './flow-catalog.ts';
import {
  type GraphError,
  GraphProblem,
  graphError,
  invalidTokenError,
  MARKETING_STOPPED_DETAILS,
  MESSAGING_LIMIT_CODE,
  messagingLimitDetails,
  RESTRICTED_DETAILS,
  sendGraphError,
  unknownObjectError,
  unknownPathError,
  WINDOW_CLOSED_DETAILS,
  webhookError,
} from './graph-errors.ts';
import type { GraphObjects } from './graph-objects.ts';
import type { MarketingStops } from './marketing-stops.ts';
import type { MediaVault } from './media-vault.ts';
import type { MessagingLimits } from './messaging-limits.ts';
import type { PhoneBook, ReceivedMessage } from './phone-book.ts';
import { renderMessage } from './render.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import type { TemplateHandler } from './send-template.ts';
import type { StatusTimeline } from './status-timeline.ts';
import type { TemplateCategory } from './templates/model.ts';
import type { Traffic } from './traffic.ts';
import type { UserIds } from './user-ids.ts';
import type { Json } from './validate-fields.ts';
import { type OutgoingMessage, parseSendRequest } from './validate-message.ts';
import { newWamid, pricingOf, userOfWamid } from './webhook-envelopes.ts';
import type { WindowTracker } from './window-tracker.ts';

export interface GraphRouteDeps {
  accessToken: string;
  windowErrorMode: 'async' | 'sync';
  phones: PhoneBook;
  windows: WindowTracker;
  timeline: StatusTimeline;
  templates: TemplateHandler;
  /** Media, templates, flows: whatever else `/{v}/{id}` may address. */
  objects: GraphObjects;
  /** The files uploaded and received: a media message by `id` must name one of them. */
  media: Pick<MediaVault, 'get'>;
  /** Flow messages must name a flow the network can open (docs/cloud-api.md §1.3, §6.2). */
  flows: FlowCatalog;
  /** Meta's throughput and pair-rate limits, and injected faults (traffic.ts). */
  traffic: Traffic;
  /** The business-scoped user ids given out, for sends that name their recipient by one. */
  userIds: UserIds;
  /** Users who stopped a number's marketing: its marketing templates fail with 131050 (marketing-stops.ts). */
  marketingStops: MarketingStops;
  /** Numbers whose account may not start conversations: templates refused (account-restrictions.ts). */
  restrictions: Pick<AccountRestrictions, 'at'>;
  /** Each number's messaging limit and the users it reached: past it, templates to new users fail. */
  messagingLimits: MessagingLimits;
  /** Sends wait while the network owes too many webhooks (webhook-poster.ts, MAX_OWED). */
  webhookRoom: () => Promise<void>;
  now: () => number;
}

/** Graph versions look like v23.0 (docs/cloud-api.md §0). */
const VERSION = /^v\d+\.\d+$/;

const sendError = sendGraphError;

/** Unreadable bodies (bad JSON, wrong content type, too large) still answer in Graph's shape. */
export function graphErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if ((error.statusCode ?? 500) < 500) {
    return sendError(reply, graphError(100, `The request body could not be read: ${error.message}`));
  }
  request.log.error({ err: error }, 'simulated Graph API failed');
  return sendError(reply, graphError(1, 'The simulated network failed to handle the request.', 500));
}

/** The token comes as `Authorization: Bearer <token>` or, as Graph also allows, `?access_token=`. */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string') return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  const query = fieldOf(request.query, 'access_token');
  return typeof query === 'string' ? query : undefined;
}

/**
 * Both forms of a Graph path: with a version (`/v23.0/...`) and without one, which Meta serves on the
 * app's default version and some clients use (docs/cloud-api.md §0).
 */
export function graphPaths(path: string): string[] {
  return [`/:version${path}`, path];
}

/** A version the path names that is not one, or undefined (a good version, or none: the default). */
function versionProblem(request: FastifyRequest): GraphError | undefined {
  const version = fieldOf(request.params, 'version');
  if (version === undefined) return undefined;
  return typeof version === 'string' && VERSION.test(version) ? undefined : badVersion(String(version));
}

function badVersion(version: string): GraphError {
  return unknownPathError(`/${version} (not a Graph API version like v23.0)`);
}

/** The version and token checks every Graph route starts with, for routes registered outside this file. */
export function graphAccessProblem(request: FastifyRequest, accessToken: string): GraphError | undefined {
  const version = versionProblem(request);
  if (version) return version;
  const token = presentedToken(request);
  if (!sameSecret(token, accessToken)) return invalidTokenError(token);
  return undefined;
}

/**
 * The business number (or its WABA: the same digits here) a Graph path names as `:id`, after the version
 * and token checks; an id that is not a number is Graph's unknown object.
 */
export function numberInPath(
  request: FastifyRequest,
  accessToken: string,
  method: 'get' | 'post',
): string | GraphError {
  const access = graphAccessProblem(request, accessToken);
  if (access) return access;
  const id = pathParam(request.params, 'id');
  return normalizePhone(id) === id ? id : unknownObjectError(method, id);
}

/** Path, token and object checks every Graph route shares, in Graph's order. */
function businessOf(
  deps: GraphRouteDeps,
  request: FastifyRequest,
  method: 'get' | 'post',
): string | GraphError {
  const phoneNumberId = pathParam(request.params, 'phoneNumberId');
  const access = graphAccessProblem(request, deps.accessToken);
  if (access) return access;
  const business = /^\d+$/.test(phoneNumberId) ? normalizePhone(phoneNumberId) : null;
  // The id must be the digits themselves: `+1415...` or a formatted number is not a Graph id.
  if (!business || business !== phoneNumberId) return unknownObjectError(method, phoneNumberId);
  return business;
}

/** What the phone shows of a message (and a template's filled-in parts and category). */
type Shown = Pick<ReceivedMessage, 'rendered' | 'template'> & { category?: TemplateCategory };

/** What the phone shows for the message, or the network's refusal of it. */
function renderedOrRefusal(
  deps: GraphRouteDeps,
  business: string,
  parsed: OutgoingMessage,
  conversation: ReturnType<GraphRouteDeps['windows']['conversation']>,
): Shown | GraphError {
  const { type, message } = parsed;
  if (type === 'template') {
    // A restricted account may not start conversations: its templates are refused, as Meta does (HTTP 403).
    if (deps.restrictions.at(business, deps.now())) return graphError(368, RESTRICTED_DETAILS, 403);
    // Templates are allowed outside the window (docs/cloud-api.md §7); the handler decides whether it exists.
    const recipient = parsed.userId !== undefined ? { userId: parsed.userId } : {};
    const outcome = deps.templates.check(business, message.template as Json, recipient);
    if (!outcome.ok) return outcome.error;
    return { rendered: outcome.rendered, template: outcome.template, category: outcome.category };
  }
  const flowProblem =
    type === 'interactive' ? deps.flows.sendProblem(business, message.interactive as Json) : undefined;
  if (flowProblem) return flowProblem;
  if (!conversation && deps.windowErrorMode === 'sync') return graphError(131047, WINDOW_CLOSED_DETAILS);
  return { rendered: renderMessage(message) };
}

/**
 * Why a message the network takes (200) never reaches the user, if it does not: a free-form message
 * outside the window (131047; the phone lists it as failed), a marketing template to a user who
 * stopped this business's marketing (131050; the phone shows nothing of it, as on WhatsApp), or a
 * template outside the window to a new user past the number's messaging limit (nothing on the phone
 * either). The limit is asked last: it counts the user as reached, which only a delivery does.
 */
function undelivered(
  deps: GraphRouteDeps,
  business: string,
  parsed: OutgoingMessage,
  shown: Shown,
  window: { open: boolean; now: number },
): { code: number; details: string; onPhone: boolean } | undefined {
  if (parsed.type !== 'template' && !window.open)
    return { code: 131047, details: WINDOW_CLOSED_DETAILS, onPhone: true };
  const missing = missingMediaId(deps, parsed);
  if (missing !== undefined) return { code: 131053, details: unknownMediaDetails(missing), onPhone: false };
  if (shown.category === 'MARKETING' && deps.marketingStops.hasStopped(business, parsed.recipient))
    return { code: 131050, details: MARKETING_STOPPED_DETAILS, onPhone: false };
  if (window.open) return undefined;
  const limit = deps.messagingLimits.reach(business, parsed.recipient, window.now);
  if (limit !== undefined)
    return { code: MESSAGING_LIMIT_CODE, details: messagingLimitDetails(limit), onPhone: false };
  return undefined;
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

/**
 * The media id a media message names that the network has no file for (never uploaded, deleted, or
 * forgotten): the send is taken, then fails with 131053, as Meta reports media it cannot fetch.
 */
function missingMediaId(deps: GraphRouteDeps, parsed: OutgoingMessage): string | undefined {
  if (!MEDIA_TYPES.has(parsed.type)) return undefined;
  const part = parsed.message[parsed.type];
  const id = typeof part === 'object' && part !== null ? (part as Json).id : undefined;
  return typeof id === 'string' && !deps.media.get(id) ? id : undefined;
}

const unknownMediaDetails = (id: string) =>
  `Media upload error: no media with id ${id.slice(0, 64)} (never uploaded, deleted, or expired); upload the file again and send its new id.`;

/** The send's answer: the recipient as named (a send by user id is answered with the id, docs/cloud-api.md §10). */
function sendAnswer(parsed: OutgoingMessage, id: string) {
  const contact = parsed.userId
    ? { input: parsed.input, user_id: parsed.userId }
    : { input: parsed.input, wa_id: parsed.recipient };
  return { messaging_product: 'whatsapp', contacts: [contact], messages: [{ id }] };
}

/** The network takes a message: delivered to the phone (or not), its statuses scheduled, its id answered. */
async function acceptMessage(
  deps: GraphRouteDeps,
  business: string,
  parsed: OutgoingMessage,
  reply: FastifyReply,
) {
  const { recipient, type, message } = parsed;
  const throttled = deps.traffic.admit(business, recipient);
  if (throttled) return sendError(reply, throttled);
  const now = deps.now();
  const conversation = deps.windows.conversation(business, recipient, now);
  const shown = renderedOrRefusal(deps, business, parsed, conversation);
  if ('body' in shown) return sendError(reply, shown);
  const { category: _category, ...seen } = shown;
  const refusal = undelivered(deps, business, parsed, shown, { open: conversation !== null, now });
  const received: ReceivedMessage = {
    id: newWamid(recipient, 'outbound'),
    from: business,
    type,
    ...seen,
    content: message,
    status: refusal ? 'failed' : 'sent',
    timestamp: new Date(now).toISOString(),
  };
  if (type === 'interactive') received.interactiveType = String((message.interactive as Json).type);
  const failure = refusal ? webhookError(refusal.code, refusal.details) : undefined;
  if (failure)
    received.error = { code: failure.code, title: failure.title, details: failure.error_data.details };
  if (!refusal || refusal.onPhone) deps.phones.deliver(recipient, received);

  const dispatch = {
    business,
    recipient,
    message: refusal?.onPhone === false ? { id: received.id, unseen: true as const } : received,
    conversation,
    pricing: pricingOf(shown.category, conversation !== null),
    ...(parsed.callbackData !== undefined ? { callbackData: parsed.callbackData } : {}),
  };
  // Default (async) mode is what production mostly does: accepted now, failed status later (docs/cloud-api.md §8).
  if (failure) deps.timeline.failed(dispatch, failure);
  else deps.timeline.delivered(dispatch);
  return sendAnswer(parsed, received.id);
}

/** Every object addressed by bare id: a flow, a template, a media file, or a business number. */
function registerObjectRoutes(app: FastifyInstance, deps: GraphRouteDeps): void {
  // One route per method for every object addressed by bare id (graph-objects.ts): the kind that owns
  // the id answers; a phone number is the fallback, and anything else is Graph's unknown object.
  for (const method of ['get', 'post', 'delete'] as const) {
    for (const url of graphPaths('/:phoneNumberId')) {
      app.route({
        method: method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
        url,
        errorHandler: graphErrorHandler,
        handler: async (request, reply) => {
          const id = pathParam(request.params, 'phoneNumberId');
          const access = graphAccessProblem(request, deps.accessToken);
          if (access) return sendError(reply, access);
          const handler = deps.objects.find(id)?.handlers[method];
          if (handler) return handler(id, request, reply);
          if (method !== 'get') return sendError(reply, unknownObjectError(method, id));
          const business = businessOf(deps, request, 'get');
          if (typeof business !== 'string') return sendError(reply, business);
          return businessObject(business, fieldOf(request.query, 'fields'));
        },
      });
    }
  }
}

/** `POST /{version}/{phone-number-id}/messages`: a send, or a read receipt. */
function registerMessagesRoute(app: FastifyInstance, deps: GraphRouteDeps): void {
  for (const url of graphPaths('/:phoneNumberId/messages')) registerMessagesAt(app, deps, url);
}

function registerMessagesAt(app: FastifyInstance, deps: GraphRouteDeps, url: string): void {
  app.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
    const business = businessOf(deps, request, 'post');
    if (typeof business !== 'string') return sendError(reply, business);
    if (deps.traffic.faulty) {
      const fault = await deps.traffic.inject(reply);
      if (fault === 'dropped') return reply;
      if (fault) return sendError(reply, fault);
    }
    let parsed: ReturnType<typeof parseSendRequest>;
    try {
      parsed = parseSendRequest(request.body, business, (id) => deps.userIds.phoneOf(business, id));
    } catch (error) {
      if (error instanceof GraphProblem) return sendError(reply, error.error);
      throw error;
    }
    if (parsed.kind === 'read') {
      // The business read a user's message: that user's phone shows it as read (blue ticks).
      const user = userOfWamid(parsed.messageId);
      if (user) deps.phones.setSentStatus(user, parsed.messageId, 'read');
      if (user && parsed.typing) deps.phones.typing(user, business);
      return { success: true };
    }
    await deps.webhookRoom();
    return acceptMessage(deps, business, parsed, reply);
  });
}

export function registerGraphRoutes(app: FastifyInstance, deps: GraphRouteDeps): void {
  registerObjectRoutes(app, deps);
  registerMessagesRoute(app, deps);
}
