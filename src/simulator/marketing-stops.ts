/**
 * Users who stopped a business number's marketing, as WhatsApp lets a user do inside the app. The network
 * still takes a MARKETING template to such a user (200 and a message id) but never hands it over: it
 * reports a single `failed` status with error 131050 instead, and the phone shows nothing of it
 * (routes-graph.ts). Utility and authentication templates and service messages still arrive.
 *
 * `PUT /users/:phone/marketing` with `{"business", "stopped"}` sets or clears it, `GET
 * /users/:phone/marketing?business=` reads it; both answer `{"business", "stopped"}`, errors
 * `{"error": {"message"}}` naming the field, as the other users' routes do (routes-users.ts). Kept in
 * the state journal like blocked users (blocked-users.ts).
 *
 * A change (not a repeat of the setting the user has) is told to the business as Meta tells it: a
 * `user_preferences` webhook with the value `stop` or `resume` (docs/cloud-api.md §3.8).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import { userErrorHandler } from './routes-users.ts';
import type { StateJournal } from './state/journal.ts';
import { JournaledPairs } from './state/journaled-pairs.ts';
import type { UserIds } from './user-ids.ts';
import { changeEnvelope } from './webhook-envelopes.ts';
import type { WebhookPoster } from './webhook-poster.ts';

/** The journal's kind, keyed by `<business>:<user number>`; a record exists only while stopped. */
export const MARKETING_STOP_KIND = 'marketing-stop';

export class MarketingStops extends JournaledPairs {
  constructor(journal: StateJournal) {
    super(journal, MARKETING_STOP_KIND);
  }

  hasStopped(business: string, user: string): boolean {
    return this.has(business, user);
  }
}

export interface MarketingRouteDeps {
  marketingStops: MarketingStops;
  poster: Pick<WebhookPoster, 'enqueue'>;
  userIds: Pick<UserIds, 'idOf'>;
  now: () => number;
}

/** The `user_preferences` change Meta posts when a user stops or resumes a business's marketing. */
function preferenceEnvelope(business: string, user: string, userId: string, stopped: boolean, at: number) {
  const value = stopped ? 'stop' : 'resume';
  return changeEnvelope(business, 'user_preferences', {
    contacts: [{ wa_id: user, user_id: userId }],
    user_preferences: [
      {
        wa_id: user,
        detail: `User requested to ${value} marketing messages`,
        category: 'marketing_messages',
        value,
        // An integer here, unlike the string timestamps of messages and statuses.
        timestamp: Math.floor(at / 1000),
      },
    ],
  });
}

/** The user of the path and the business the request names (`business` of the body or the query). */
function pairOf(request: FastifyRequest, business: unknown): { user: string; business: string } | string {
  const raw = pathParam(request.params, 'phone');
  const user = normalizePhone(raw);
  if (!user) return `\`phone\` in the path is not a valid phone number with country code: "${raw}"`;
  const number = typeof business === 'string' ? normalizePhone(business) : null;
  if (!number) return '`business` must be the business number, with country code';
  if (number === user) return '`business` must not be the phone itself';
  return { user, business: number };
}

const refuse = (reply: FastifyReply, message: string) => reply.code(400).send({ error: { message } });

export function registerMarketingRoutes(app: FastifyInstance, deps: MarketingRouteDeps): void {
  app.get('/users/:phone/marketing', { errorHandler: userErrorHandler }, async (request, reply) => {
    const pair = pairOf(request, fieldOf(request.query, 'business'));
    if (typeof pair === 'string') return refuse(reply, pair);
    return { business: pair.business, stopped: deps.marketingStops.hasStopped(pair.business, pair.user) };
  });

  app.put('/users/:phone/marketing', { errorHandler: userErrorHandler }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return refuse(reply, 'the body must be a JSON object: {"business", "stopped"}');
    const pair = pairOf(request, fieldOf(body, 'business'));
    if (typeof pair === 'string') return refuse(reply, pair);
    const stopped = fieldOf(body, 'stopped');
    if (typeof stopped !== 'boolean') return refuse(reply, '`stopped` must be true or false');
    const { business, user } = pair;
    if (deps.marketingStops.hasStopped(business, user) !== stopped) {
      deps.marketingStops.set(business, user, stopped);
      // Queued with the user's messages to the business: a STOP texted before it arrives before it.
      const envelope = preferenceEnvelope(
        business,
        user,
        deps.userIds.idOf(business, user),
        stopped,
        deps.now(),
      );
      deps.poster.enqueue(`inbound:${business}:${user}`, envelope);
    }
    return { business, stopped };
  });
}
