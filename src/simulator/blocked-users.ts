/**
 * Users a business number blocked (`/{phone-number-id}/block_users`, docs/cloud-api.md §11): block and
 * unblock by number (`user`) or by business-scoped id (`user_id`), and list. A blocked user's messages no
 * longer reach the business: the phone keeps them as sent, and no webhook is posted. Kept in the state
 * journal like the rest of the network.
 */
import type { FastifyInstance } from 'fastify';
import { normalizePhone } from '../lib/phone.ts';
import { type GraphError, graphError, isGraphError, sendGraphError } from './graph-errors.ts';
import { fieldOf } from './request-fields.ts';
import { graphErrorHandler, graphPaths, numberInPath } from './routes-graph.ts';
import type { StateJournal } from './state/journal.ts';
import { JournaledPairs } from './state/journaled-pairs.ts';
import type { UserIds } from './user-ids.ts';

/** The journal's kind, keyed by `<business>:<user number>`. */
export const BLOCKED_KIND = 'blocked-user';

export class BlockedUsers extends JournaledPairs {
  constructor(journal: StateJournal) {
    super(journal, BLOCKED_KIND);
  }

  isBlocked(business: string, user: string): boolean {
    return this.has(business, user);
  }

  list(business: string): string[] {
    return this.usersOf(business);
  }
}

export interface BlockRouteDeps {
  accessToken: string;
  blocked: BlockedUsers;
  userIds: UserIds;
}

interface Outcome {
  done: { input: string; wa_id?: string; user_id?: string }[];
  failed: { input: string; errors: { code: number; message: string }[] }[];
}

/** Blocks or unblocks each user the body names; one the network cannot tell is a failed user. */
function apply(deps: BlockRouteDeps, business: string, body: unknown, block: boolean): Outcome | GraphError {
  const users = fieldOf(body, 'block_users');
  if (fieldOf(body, 'messaging_product') !== 'whatsapp')
    return graphError(100, 'The parameter messaging_product is required.');
  if (!Array.isArray(users) || users.length === 0 || users.length > 1000)
    return graphError(100, "Parameter 'block_users' must list 1 to 1000 users.");
  const outcome: Outcome = { done: [], failed: [] };
  for (const entry of users) {
    const byNumber = fieldOf(entry, 'user');
    const byId = fieldOf(entry, 'user_id');
    const input = typeof byNumber === 'string' ? byNumber : typeof byId === 'string' ? byId : '';
    const phone =
      typeof byNumber === 'string'
        ? normalizePhone(byNumber)
        : input
          ? deps.userIds.phoneOf(business, input)
          : null;
    if (!phone) {
      outcome.failed.push({ input, errors: [{ code: 139100, message: 'Failed to block/unblock users' }] });
      continue;
    }
    deps.blocked.set(business, phone, block);
    outcome.done.push(typeof byNumber === 'string' ? { input, wa_id: phone } : { input, user_id: input });
  }
  return outcome;
}

export function registerBlockRoutes(app: FastifyInstance, deps: BlockRouteDeps): void {
  for (const url of graphPaths('/:id/block_users')) {
    for (const [method, block] of [
      ['post', true],
      ['delete', false],
    ] as const) {
      app[method](url, { errorHandler: graphErrorHandler }, async (request, reply) => {
        const business = numberInPath(request, deps.accessToken, 'post');
        if (isGraphError(business)) return sendGraphError(reply, business);
        const outcome = apply(deps, business, request.body, block);
        if (isGraphError(outcome)) return sendGraphError(reply, outcome);
        const list = block ? 'added_users' : 'removed_users';
        const failed = outcome.failed.length ? { failed_users: outcome.failed } : {};
        return { messaging_product: 'whatsapp', block_users: { [list]: outcome.done, ...failed } };
      });
    }
    app.get(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const business = numberInPath(request, deps.accessToken, 'get');
      if (isGraphError(business)) return sendGraphError(reply, business);
      const data = deps.blocked.list(business).map((wa_id) => ({ messaging_product: 'whatsapp', wa_id }));
      return { data, paging: { cursors: { before: '', after: '' } } };
    });
  }
}
