/**
 * /app/webhooks: endpoints (create with URL and event types under the API's URL rules, the signing secret,
 * delete after a confirmation) and, per endpoint, recent deliveries with their attempts and a redeliver
 * button. Reads and writes go through the same domain service as /api/v1/webhooks
 * (src/domain/webhook-endpoints.ts), scoped by account.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { eventTypes, unknownEventTypes } from '../../domain/event-types.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import {
  createEndpoint,
  deleteEndpoint,
  endpointSecret,
  endpointUrlProblem,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
} from '../../domain/webhook-endpoints.ts';
import { badge, copyable, input, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, fieldList, param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';

const RECENT_DELIVERIES = 20;

async function owned(service: PortalDeps['webhooks'], accountId: string, id: string) {
  const row = await findEndpoint(service, accountId, id);
  if (!row) throw new GatewayError('not_found', 'There is no such webhook endpoint in your account.');
  return row;
}

function send(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

async function list(
  service: PortalDeps['webhooks'],
  reply: FastifyReply,
  session: SessionContext,
  status: number,
  options: {
    notice?: string | undefined;
    url?: string;
    events?: string[];
    urlError?: string;
    eventsError?: string;
  },
) {
  const endpoints = await listEndpoints(service, session.accountId);
  const chosen = options.events ?? [...eventTypes];
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
${input({ name: 'url', label: 'URL', type: 'url', value: options.url ?? '', error: options.urlError, hint: 'An https URL of your application.', required: true })}
<fieldset${options.eventsError ? html` aria-describedby="events-error"` : ''}><legend>Events</legend>
${options.eventsError ? html`<p class="field-error" id="events-error">${options.eventsError}</p>` : ''}
${eventTypes.map((t) => html`<div class="check"><input type="checkbox" id="ev-${t}" name="events" value="${t}"${chosen.includes(t) ? html` checked` : ''}><label for="ev-${t}">${t}</label></div>`)}
</fieldset>
<button type="submit">Add endpoint</button>
</form></section>`;
  return send(
    reply,
    status,
    page({ title: 'Webhooks', session, section: 'webhooks', notice: options.notice, body }),
  );
}

/** The endpoint's recent deliveries, each with its attempts and a button to deliver it again. */
function deliveriesHtml(
  deliveries: Awaited<ReturnType<typeof listDeliveries>>,
  endpointId: string,
  session: SessionContext,
) {
  return deliveries.length
    ? deliveries.map((d) => {
        const mine = d.attempts;
        return html`<section class="card"><h3>${d.eventType} ${badge(d.status)}</h3>
<p class="hint">Created ${when(d.createdAt)}${d.status === 'pending' ? html`; next attempt ${when(d.nextAttemptAt)}` : ''}</p>
${
  mine.length
    ? html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Time</th><th scope="col">Status code</th><th scope="col">Latency</th><th scope="col">Error</th></tr></thead>
<tbody>${mine.map((a) => html`<tr><td data-label="Time">${when(a.at)}</td><td data-label="Status code">${a.statusCode ?? '—'}</td><td data-label="Latency">${a.latencyMs} ms</td><td data-label="Error">${a.error ?? ''}</td></tr>`)}</tbody></table></div>`
    : html`<p>No attempt yet.</p>`
}
<form method="post" action="/app/webhooks/${endpointId}/deliveries/${d.id}/redeliver">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Redeliver<span class="visually-hidden"> ${d.eventType} delivery</span></button></form>
</section>`;
      })
    : html`<p>No deliveries yet.</p>`;
}

/** The endpoints and the form to add one. */
function registerEndpointList(portal: FastifyInstance, service: PortalDeps['webhooks']): void {
  portal.get('/webhooks', async (request, reply) =>
    list(service, reply, sessionOf(request), 200, { notice: noticeOf(request.query) }),
  );

  portal.post('/webhooks', async (request, reply) => {
    const session = sessionOf(request);
    const url = field(request.body, 'url', 2048).trim();
    const events = fieldList(request.body, 'events');
    const problem = endpointUrlProblem(service, url);
    const unknown = unknownEventTypes(events);
    const eventsError =
      events.length === 0
        ? 'Choose at least one event type.'
        : unknown.length
          ? `Unknown event type ${unknown[0]}.`
          : undefined;
    if (problem || eventsError) {
      const urlError = problem ? `The URL ${problem}.` : undefined;
      return list(service, reply, session, 400, {
        url,
        events,
        ...(urlError ? { urlError } : {}),
        ...(eventsError ? { eventsError } : {}),
      });
    }
    const { endpoint } = await createEndpoint(service, session.accountId, { url, events });
    return reply.redirect(`/app/webhooks/${endpoint.id}?notice=webhook-created`, 303);
  });
}

/** One endpoint: its facts, its secret and its recent deliveries. */
function registerEndpointPage(portal: FastifyInstance, service: PortalDeps['webhooks']): void {
  portal.get('/webhooks/:id', async (request, reply) => {
    const session = sessionOf(request);
    const endpoint = await owned(service, session.accountId, param(request.params, 'id'));
    const deliveries = await listDeliveries(service, session.accountId, endpoint.id, {
      limit: RECENT_DELIVERIES,
    });
    const secret = endpointSecret(service, endpoint);
    const body = html`<p><a href="/app/webhooks">← All endpoints</a></p>
<section class="card"><dl class="facts">
<dt>URL</dt><dd><code>${endpoint.url}</code></dd>
<dt>Events</dt><dd>${endpoint.events.join(', ')}</dd>
<dt>State</dt><dd>${badge(endpoint.disabledAt === null ? 'ENABLED' : 'DISABLED')}</dd>
<dt>Created</dt><dd>${when(endpoint.createdAt)}</dd>
<dt>Signing secret</dt><dd><details><summary>Show the secret</summary>${copyable(secret, 'the signing secret')}</details></dd>
</dl>
<p><a class="button danger" href="/app/webhooks/${endpoint.id}/delete">Delete endpoint</a></p></section>
<h2>Recent deliveries</h2>
${deliveriesHtml(deliveries, endpoint.id, session)}`;
    return send(
      reply,
      200,
      page({
        title: 'Webhook endpoint',
        session,
        section: 'webhooks',
        notice: noticeOf(request.query),
        body,
      }),
    );
  });
}

/** Deleting an endpoint (with a confirmation) and delivering an event again. */
function registerEndpointActions(portal: FastifyInstance, service: PortalDeps['webhooks']): void {
  portal.get('/webhooks/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const endpoint = await owned(service, session.accountId, param(request.params, 'id'));
    const body = html`<section class="card"><p>Delete the endpoint <code>${endpoint.url}</code> and its delivery history? Events stop going to it at once. This cannot be undone.</p>
<div class="actions"><form method="post" action="/app/webhooks/${endpoint.id}/delete">${csrfField(session.csrfToken)}<button type="submit" class="danger">Delete endpoint</button></form>
<a class="button secondary" href="/app/webhooks/${endpoint.id}">Cancel</a></div></section>`;
    return send(reply, 200, page({ title: 'Delete webhook endpoint', session, section: 'webhooks', body }));
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
  registerEndpointPage(portal, deps.webhooks);
  registerEndpointActions(portal, deps.webhooks);
}
