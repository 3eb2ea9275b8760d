/**
 * /app/webhooks: the account's endpoints, adding one (URL and event types under the API's URL rules),
 * deleting one after a confirmation, and delivering a delivery again. An endpoint's own page is
 * webhook-endpoint.ts. Reads and writes go through the same domain service as /api/v1/webhooks
 * (src/domain/webhook-endpoints.ts), scoped by account.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { eventTypes } from '../../domain/event-types.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { createEndpoint, deleteEndpoint, listEndpoints, redeliver } from '../../domain/webhook-endpoints.ts';
import { badge } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import {
  answersAreFine,
  type EndpointAnswers,
  endpointAnswers,
  endpointFields,
} from '../webhooks/endpoint-form.ts';
import { ownedEndpointOrPage } from '../webhooks/endpoint-pages.ts';
import { html200 } from './account.ts';
import { registerEndpointPage } from './webhook-endpoint.ts';

async function list(
  service: PortalDeps['webhooks'],
  reply: FastifyReply,
  session: SessionContext,
  status: number,
  options: { notice?: string | undefined; answers?: EndpointAnswers },
) {
  const endpoints = await listEndpoints(service, session.accountId);
  const answers = options.answers ?? { url: '', events: [...eventTypes] };
  const body = html`<section class="card"><h2>Endpoints</h2>${
    endpoints.length
      ? html`<ul>${endpoints.map(
          (e) =>
            html`<li><a href="/app/webhooks/${e.id}">${e.url}</a> ${badge(e.disabledAt === null ? 'ENABLED' : 'DISABLED')} <span class="hint">${e.events.join(', ')}</span></li>`,
        )}</ul>`
      : html`<p>No endpoints yet. Switchboard posts signed events to the endpoints you add here.</p>`
  }</section>
<section class="card" aria-labelledby="new-endpoint"><h2 id="new-endpoint">Add an endpoint</h2>
<form method="post" action="/app/webhooks" novalidate>
${csrfField(session.csrfToken)}
${endpointFields(answers)}
<button type="submit">Add endpoint</button>
</form></section>`;
  return html200(
    reply,
    status,
    page({ title: 'Webhooks', session, section: 'webhooks', notice: options.notice, body }),
  );
}

/** The endpoints and the form to add one. */
function registerEndpointList(portal: FastifyInstance, service: PortalDeps['webhooks']): void {
  portal.get('/webhooks', async (request, reply) =>
    list(service, reply, sessionOf(request), 200, { notice: noticeOf(request.query) }),
  );

  portal.post('/webhooks', async (request, reply) => {
    const session = sessionOf(request);
    const answers = endpointAnswers(service, request.body);
    if (!answersAreFine(answers)) return list(service, reply, session, 400, { answers });
    const { url, events } = answers;
    const { endpoint } = await createEndpoint(service, session.accountId, { url, events });
    return reply.redirect(`/app/webhooks/${endpoint.id}?notice=webhook-created`, 303);
  });
}

/** Deleting an endpoint (with a confirmation) and delivering an event again. */
function registerEndpointActions(portal: FastifyInstance, service: PortalDeps['webhooks']): void {
  portal.get('/webhooks/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const endpoint = await ownedEndpointOrPage(service, session.accountId, param(request.params, 'id'));
    const body = html`<section class="card"><p>Delete the endpoint <code>${endpoint.url}</code> and its delivery history? Events stop going to it at once. This cannot be undone.</p>
<div class="actions"><form method="post" action="/app/webhooks/${endpoint.id}/delete">${csrfField(session.csrfToken)}<button type="submit" class="danger">Delete endpoint</button></form>
<a class="button secondary" href="/app/webhooks/${endpoint.id}">Cancel</a></div></section>`;
    return html200(
      reply,
      200,
      page({ title: 'Delete webhook endpoint', session, section: 'webhooks', body }),
    );
  });

  portal.post('/webhooks/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    if (!(await deleteEndpoint(service, session.accountId, param(request.params, 'id')))) {
      throw new GatewayError('not_found', 'There is no such webhook endpoint in your account.');
    }
    return reply.redirect('/app/webhooks?notice=webhook-deleted', 303);
  });

  portal.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const queued = await redeliver(service, session.accountId, id, param(request.params, 'deliveryId'));
    if (!queued) throw new GatewayError('not_found', 'There is no such delivery in your account.');
    return reply.redirect(`/app/webhooks/${id}?notice=redelivery-queued`, 303);
  });
}

export function registerWebhookPages(portal: FastifyInstance, deps: PortalDeps): void {
  registerEndpointList(portal, deps.webhooks);
  registerEndpointActions(portal, deps.webhooks);
  registerEndpointPage(portal, deps);
}
