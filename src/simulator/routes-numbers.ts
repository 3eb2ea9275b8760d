/**
 * The simulator's own controls of a business number, standing in for what Meta decides on its side (no
 * Graph auth; the simulator's token when it is private, access-gate.ts):
 *
 * - `GET /numbers/:phone/messaging-limit` → `{"limit", "used"}`: the number's messaging limit (a number,
 *   or "unlimited") and the unique users it reached outside a window in the last 24 hours
 *   (messaging-limits.ts). `PUT` with `{"limit": 250 | 1000 | 2000 | 10000 | 100000 | "unlimited"}` sets
 *   it and answers the same.
 * - `POST /numbers/:phone/quality` with `{"event": "FLAGGED" | "UNFLAGGED" | "DOWNGRADE" | "UPGRADE",
 *   "currentLimit"?: "TIER_250" | ...}` posts Meta's `phone_number_quality_update` webhook (given a
 *   `currentLimit`, the limit becomes it first) and answers 202 `{"posted": true}`.
 * - `PUT /numbers/:phone/restriction` with `{"restricted": true, "until"?: "<ISO time>"}` restricts the
 *   number's WhatsApp Business Account from starting conversations (its templates get error 368) and posts
 *   Meta's `account_update` (`ACCOUNT_RESTRICTION`, `RESTRICTED_BIZ_INITIATED_MESSAGING`); `{"restricted":
 *   false}` lifts it, and posts nothing (what Meta posts then is not documented). `GET` reads it. Both
 *   answer `{"restricted", "until"}` (`until` an ISO time, or null: until lifted).
 *
 * Errors are 400 `{"error": {"message"}}` naming the field, as the other own routes answer
 * (routes-faults.ts, marketing-stops.ts).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS, limitOfTier, type MessagingLimit, TIER_NAMES, tierOf } from '../lib/messaging-tiers.ts';
import { normalizePhone } from '../lib/phone.ts';
import type { AccountRestrictions } from './account-restrictions.ts';
import type { MessagingLimits } from './messaging-limits.ts';
import { pathParam } from './request-fields.ts';
import { accountChangeEnvelope } from './webhook-envelopes.ts';
import type { WebhookPoster } from './webhook-poster.ts';

export interface NumberRouteDeps {
  messagingLimits: MessagingLimits;
  restrictions: AccountRestrictions;
  poster: WebhookPoster;
  now: () => number;
}

/** The events of Meta's `phone_number_quality_update` the simulator lets a test announce. */
const QUALITY_EVENTS = ['FLAGGED', 'UNFLAGGED', 'DOWNGRADE', 'UPGRADE'];

class NumberError extends Error {}

const refuse = (reply: FastifyReply, message: string) => reply.code(400).send({ error: { message } });

/** Unreadable bodies (bad JSON, wrong content type) are a 400 that says so. */
function numberErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if ((error.statusCode ?? 500) < 500) return refuse(reply, `the body could not be read: ${error.message}`);
  request.log.error({ err: error }, 'simulated number control failed');
  return reply.code(500).send({ error: { message: 'the number control failed' } });
}

function numberOf(request: FastifyRequest): string {
  const raw = pathParam(request.params, 'phone');
  const number = normalizePhone(raw);
  if (!number)
    throw new NumberError(`\`phone\` in the path is not a valid phone number with country code: "${raw}"`);
  return number;
}

/** The body as a record of only the fields named, or a NumberError naming what is wrong. */
function bodyWith(body: unknown, fields: string[], example: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new NumberError(`the body must be a JSON object such as ${example}`);
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).find((k) => !fields.includes(k));
  if (unknown) throw new NumberError(`\`${unknown}\` is not a field here; use ${fields.join(', ')}`);
  return record;
}

function limitOfBody(body: unknown): MessagingLimit {
  const { limit } = bodyWith(body, ['limit'], '{"limit": 250}');
  if (limit === 'unlimited') return null;
  const found = LIMITS.find((l) => l === limit);
  if (found === undefined)
    throw new NumberError(`\`limit\` must be one of ${LIMITS.join(', ')} or "unlimited" (Meta's limits)`);
  return found;
}

function qualityOfBody(body: unknown): { event: string; limit?: MessagingLimit } {
  const fields = bodyWith(
    body,
    ['event', 'currentLimit'],
    '{"event": "DOWNGRADE", "currentLimit": "TIER_250"}',
  );
  const { event, currentLimit } = fields;
  if (typeof event !== 'string' || !QUALITY_EVENTS.includes(event))
    throw new NumberError(`\`event\` must be one of ${QUALITY_EVENTS.join(', ')}`);
  if (currentLimit === undefined) return { event };
  const limit = typeof currentLimit === 'string' ? limitOfTier(currentLimit) : undefined;
  if (limit === undefined) throw new NumberError(`\`currentLimit\` must be one of ${TIER_NAMES.join(', ')}`);
  return { event, limit };
}

function limitView(deps: NumberRouteDeps, business: string) {
  const limit = deps.messagingLimits.limitOf(business);
  return { limit: limit ?? 'unlimited', used: deps.messagingLimits.used(business, deps.now()) };
}

/**
 * Meta's `phone_number_quality_update` value: `old_limit` only for a change of the messaging limit, and
 * the limit both as `current_limit` and as `max_daily_conversations_per_business`, its newer name (each
 * number being its own business portfolio here).
 */
function announce(
  deps: NumberRouteDeps,
  business: string,
  quality: { event: string; limit?: MessagingLimit },
) {
  const before = tierOf(deps.messagingLimits.limitOf(business));
  if (quality.limit !== undefined) deps.messagingLimits.setLimit(business, quality.limit);
  const current = tierOf(deps.messagingLimits.limitOf(business));
  const value = {
    display_phone_number: business,
    event: quality.event,
    ...(quality.limit !== undefined ? { old_limit: before } : {}),
    current_limit: current,
    max_daily_conversations_per_business: current,
  };
  const envelope = accountChangeEnvelope(business, 'phone_number_quality_update', value, deps.now());
  deps.poster.enqueue(`quality:${business}`, envelope);
}

function restrictionOfBody(body: unknown, now: number): { restricted: boolean; until: number | null } {
  const fields = bodyWith(body, ['restricted', 'until'], '{"restricted": true}');
  const { restricted, until } = fields;
  if (typeof restricted !== 'boolean') throw new NumberError('`restricted` must be true or false');
  if (until === undefined) return { restricted, until: null };
  const at = typeof until === 'string' ? Date.parse(until) : Number.NaN;
  if (!restricted || !Number.isFinite(at) || at <= now)
    throw new NumberError('`until` must be a time in the future (ISO 8601), with `"restricted": true`');
  return { restricted, until: at };
}

function restrictionView(deps: NumberRouteDeps, business: string) {
  const restriction = deps.restrictions.at(business, deps.now());
  const until = restriction?.until;
  return { restricted: restriction !== undefined, until: until ? new Date(until).toISOString() : null };
}

/** Restricts or lifts; a new restriction is announced as Meta's `account_update` (docs/cloud-api.md §3.9). */
function setRestriction(deps: NumberRouteDeps, business: string, body: unknown) {
  const { restricted, until } = restrictionOfBody(body, deps.now());
  if (!restricted) {
    deps.restrictions.lift(business);
    return;
  }
  deps.restrictions.restrict(business, until);
  const restriction = { restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING' };
  const value = {
    event: 'ACCOUNT_RESTRICTION',
    restriction_info: [
      until === null ? restriction : { ...restriction, expiration: new Date(until).toISOString() },
    ],
  };
  deps.poster.enqueue(
    `account:${business}`,
    accountChangeEnvelope(business, 'account_update', value, deps.now()),
  );
}

/** Runs a handler, answering its NumberError as the 400 it stands for. */
async function answering(reply: FastifyReply, handle: () => unknown) {
  try {
    return handle();
  } catch (error) {
    if (error instanceof NumberError) return refuse(reply, error.message);
    throw error;
  }
}

export function registerNumberRoutes(app: FastifyInstance, deps: NumberRouteDeps): void {
  const options = { errorHandler: numberErrorHandler };
  app.get('/numbers/:phone/messaging-limit', options, async (request, reply) =>
    answering(reply, () => limitView(deps, numberOf(request))),
  );

  app.put('/numbers/:phone/messaging-limit', options, async (request, reply) =>
    answering(reply, () => {
      const business = numberOf(request);
      deps.messagingLimits.setLimit(business, limitOfBody(request.body));
      return limitView(deps, business);
    }),
  );

  app.get('/numbers/:phone/restriction', options, async (request, reply) =>
    answering(reply, () => restrictionView(deps, numberOf(request))),
  );

  app.put('/numbers/:phone/restriction', options, async (request, reply) =>
    answering(reply, () => {
      const business = numberOf(request);
      setRestriction(deps, business, request.body);
      return restrictionView(deps, business);
    }),
  );

  app.post('/numbers/:phone/quality', options, async (request, reply) =>
    answering(reply, () => {
      const business = numberOf(request);
      announce(deps, business, qualityOfBody(request.body));
      return reply.code(202).send({ posted: true });
    }),
  );
}
