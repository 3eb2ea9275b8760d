/**
 * /app/flows/:id/publish|deprecate|delete: the moves of a flow's life, each asked on a page of its own
 * first, since none can be undone (publishing freezes the Flow JSON; deprecating stops new sends of it;
 * deleting removes a draft). The moves are the domain's (src/domain/flows/flow-service.ts), as for the
 * API; one the flow's status no longer allows (changed meanwhile) is told on the flows page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import {
  deleteFlow,
  deprecateFlow,
  type FlowView,
  getFlow,
  publishFlow,
} from '../../domain/flows/flow-service.ts';
import { badge } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';

const MOVES = {
  publish: {
    title: 'Publish the flow',
    button: 'Publish',
    words: (f: FlowView) =>
      html`Publish <strong>${f.name}</strong>? A published flow can be sent to customers, and its Flow JSON can no longer be changed: a change needs a new flow. This cannot be undone.`,
    act: (deps: PortalDeps, accountId: string, id: number) => publishFlow(deps.flows, accountId, id),
    notice: 'flow-published',
  },
  deprecate: {
    title: 'Deprecate the flow',
    button: 'Deprecate',
    words: (f: FlowView) =>
      html`Deprecate <strong>${f.name}</strong>? It can no longer be sent; customers who have it open can still finish it. This cannot be undone.`,
    act: (deps: PortalDeps, accountId: string, id: number) => deprecateFlow(deps.flows, accountId, id),
    notice: 'flow-deprecated',
  },
  delete: {
    title: 'Delete the flow',
    button: 'Delete',
    words: (f: FlowView) =>
      html`Delete the draft <strong>${f.name}</strong>? It was never published; it is removed for good.`,
    act: (deps: PortalDeps, accountId: string, id: number) => deleteFlow(deps.flows, accountId, id),
    notice: 'flow-deleted',
  },
} as const;

/** A flow id from the path; anything else names no flow. */
function flowId(params: unknown): number {
  const raw = param(params, 'id');
  if (!/^[1-9][0-9]{0,14}$/.test(raw))
    throw new GatewayError('not_found', 'There is no such flow in your account.');
  return Number(raw);
}

function confirmation(
  move: (typeof MOVES)[keyof typeof MOVES],
  flow: FlowView,
  action: string,
  csrf: string,
): SafeHtml {
  return html`<section class="card"><p>${move.words(flow)}</p><p>Now ${badge(flow.status)}</p>
<div class="actions"><form method="post" action="/app/flows/${flow.id}/${action}">${csrfField(csrf)}<button type="submit"${action === 'publish' ? '' : html` class="danger"`}>${move.button}</button></form>
<a class="button secondary" href="/app/flows">Cancel</a></div></section>`;
}

export function registerFlowLifecycle(
  portal: FastifyInstance,
  deps: PortalDeps,
  showRefusal: (request: FastifyRequest, reply: FastifyReply, error: GatewayError) => Promise<FastifyReply>,
): void {
  for (const [action, move] of Object.entries(MOVES)) {
    portal.get(`/flows/:id/${action}`, async (request, reply) => {
      const session = sessionOf(request);
      const flow = await getFlow(deps.flows, session.accountId, flowId(request.params));
      const body = confirmation(move, flow, action, session.csrfToken);
      return reply
        .type('text/html; charset=utf-8')
        .send(page({ title: move.title, session, section: 'flows', body }));
    });
    portal.post(`/flows/:id/${action}`, async (request, reply) => {
      const session = sessionOf(request);
      try {
        await move.act(deps, session.accountId, flowId(request.params));
      } catch (error) {
        if (!(error instanceof GatewayError) || error.status >= 500 || error.status === 404) throw error;
        return showRefusal(request, reply, error);
      }
      return reply.redirect(`/app/flows?notice=${move.notice}`, 303);
    });
  }
}
