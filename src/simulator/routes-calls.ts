/**
 * The calling routes (calls.ts): the business's `POST /{phone-number-id}/calls` with its actions, and a
 * virtual user's `POST /simulator/users/:phone/calls`, which rings a business.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import type { Call, Calls } from './calls.ts';
import { type GraphError, graphError, isGraphError, sendGraphError } from './graph-errors.ts';
import { fieldOf, pathParam } from './request-fields.ts';
import { graphErrorHandler, graphPaths, numberInPath } from './routes-graph.ts';
import type { UserIds } from './user-ids.ts';
import type { WindowTracker } from './window-tracker.ts';

export interface CallRouteDeps {
  accessToken: string;
  calls: Calls;
  userIds: UserIds;
  windows: WindowTracker;
  now: () => number;
}

const ACTIONS = ['connect', 'pre_accept', 'accept', 'reject', 'terminate'];

/** The session description an action must carry: its type, and some text. */
function sessionProblem(body: unknown, type: 'offer' | 'answer'): GraphError | undefined {
  const session = fieldOf(body, 'session');
  const sdp = fieldOf(session, 'sdp');
  if (fieldOf(session, 'sdp_type') !== type || typeof sdp !== 'string' || sdp.trim() === '') {
    return graphError(
      100,
      `Parameter 'session' must hold an SDP ${type}: {"sdp_type":"${type}","sdp":"..."}.`,
    );
  }
  return undefined;
}

const callbackOf = (body: unknown) => {
  const data = fieldOf(body, 'biz_opaque_callback_data');
  return typeof data === 'string' ? data.slice(0, 512) : undefined;
};

/** A business calls a user it may call: one whose window is open stands in for the user's permission. */
function connect(deps: CallRouteDeps, business: string, body: unknown): unknown {
  const to = fieldOf(body, 'to');
  const recipient = fieldOf(body, 'recipient');
  const user =
    typeof to === 'string'
      ? normalizePhone(to)
      : typeof recipient === 'string'
        ? (deps.userIds.phoneOf(business, recipient) ?? null)
        : null;
  if (!user) return graphError(100, "Parameter 'to' (or 'recipient') must name a WhatsApp user.");
  const session = sessionProblem(body, 'offer');
  if (session) return session;
  if (!deps.windows.conversation(business, user, deps.now())) {
    return graphError(138006, `User ${user} has not allowed this number to call them.`);
  }
  const call = deps.calls.businessCalls(business, user, callbackOf(body));
  return { messaging_product: 'whatsapp', calls: [{ id: call.id }] };
}

/** What the business does with a call it has: answer, reject or end it. */
function act(deps: CallRouteDeps, call: Call, action: string, body: unknown): GraphError | undefined {
  const incoming = call.direction === 'USER_INITIATED' && call.state !== 'accepted';
  if (action === 'terminate') return void deps.calls.end(call);
  if (!incoming)
    return graphError(100, `Call ${call.id} is not a ringing call from a user; it can only be ended.`);
  if (action === 'reject') return void deps.calls.end(call);
  const session = sessionProblem(body, 'answer');
  if (session) return session;
  if (action === 'pre_accept') deps.calls.preAccept(call);
  else deps.calls.accept(call, callbackOf(body));
  return undefined;
}

function handle(deps: CallRouteDeps, request: FastifyRequest): unknown {
  const business = numberInPath(request, deps.accessToken, 'post');
  if (isGraphError(business)) return business;
  const body = request.body;
  if (fieldOf(body, 'messaging_product') !== 'whatsapp')
    return graphError(100, 'The parameter messaging_product is required.');
  const action = fieldOf(body, 'action');
  if (typeof action !== 'string' || !ACTIONS.includes(action))
    return graphError(100, `Parameter 'action' must be one of ${ACTIONS.join(', ')}.`);
  if (action === 'connect') return connect(deps, business, body);
  const id = fieldOf(body, 'call_id');
  const call = typeof id === 'string' ? deps.calls.get(id) : undefined;
  if (!call || call.business !== business)
    return graphError(100, "Parameter 'call_id' is not a call of this number.");
  return act(deps, call, action, body) ?? { messaging_product: 'whatsapp', success: true };
}

export function registerCallRoutes(app: FastifyInstance, deps: CallRouteDeps): void {
  for (const url of graphPaths('/:id/calls')) {
    app.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const answer = handle(deps, request);
      return isGraphError(answer) ? sendGraphError(reply, answer) : answer;
    });
  }
  // The virtual user rings a business (no Graph token: the simulator's own route, gated like the others).
  app.post('/users/:phone/calls', async (request, reply) => {
    const user = normalizePhone(pathParam(request.params, 'phone'));
    const to = fieldOf(request.body, 'to');
    const business = typeof to === 'string' ? normalizePhone(to) : null;
    if (!user)
      return reply.code(400).send({ error: { message: '`phone` in the path is not a valid phone number' } });
    if (!business || business === user)
      return reply
        .code(400)
        .send({ error: { message: '`to` must be the business number, with country code' } });
    return reply.code(202).send({ id: deps.calls.userCalls(business, user).id });
  });
}
