/**
 * /app/webhooks/:id: one endpoint. Its facts and signing secret; its URL and event types changed; turned
 * off and on; sent a test event (`webhook.test`); its secret rotated after a confirmation, the new one
 * shown once with the time the old one stops signing; and its deliveries (webhooks/deliveries-section.ts).
 * Every change goes through the domain functions /api/v1/webhooks calls (src/domain/webhook-endpoints.ts);
 * another account's endpoint is "not found".
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import type { WebhookEndpoint } from '../../domain/ports/webhook-endpoints.ts';
import {
  endpointSecret,
  rotateEndpointSecret,
  sendTestEvent,
  updateEndpoint,
} from '../../domain/webhook-endpoints.ts';
import { badge, copyable, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { deliveriesSection, deliveryQueryOf } from '../webhooks/deliveries-section.ts';
import {
  answersAreFine,
  type EndpointAnswers,
  endpointAnswers,
  endpointFields,
} from '../webhooks/endpoint-form.ts';
import { ownedEndpointOrPage } from '../webhooks/endpoint-pages.ts';
import { html200 } from './account.ts';

const stateOf = (e: WebhookEndpoint) => (e.disabledAt === null ? 'ENABLED' : 'DISABLED');

function button(e: WebhookEndpoint, session: SessionContext, action: string, label: string): SafeHtml {
  return html`<form method="post" action="/app/webhooks/${e.id}/${action}">${csrfField(session.csrfToken)}<button type="submit" class="secondary">${label}</button></form>`;
}

function factsCard(deps: PortalDeps, e: WebhookEndpoint, session: SessionContext): SafeHtml {
  const off = e.disabledAt !== null;
  return html`<section class="card"><dl class="facts">
<dt>URL</dt><dd><code>${e.url}</code></dd>
<dt>Events</dt><dd>${e.events.join(', ')}</dd>
<dt>State</dt><dd>${badge(stateOf(e))}${off ? html` since ${when(e.disabledAt ?? 0)}: nothing is delivered to it until it is turned on` : ''}</dd>
<dt>Created</dt><dd>${when(e.createdAt)}</dd>
<dt>Signing secret</dt><dd><details><summary>Show the secret</summary>${copyable(endpointSecret(deps.webhooks, e), 'the signing secret')}</details>${e.previousSecretUntil && e.previousSecretUntil > Date.now() ? html`<p class="hint">The previous secret also signs until ${when(e.previousSecretUntil)}.</p>` : ''}</dd>
</dl>
<div class="actions">
${off ? button(e, session, 'enable', 'Turn on') : html`${button(e, session, 'test', 'Send a test event')}${button(e, session, 'disable', 'Turn off')}`}
<a class="button secondary" href="/app/webhooks/${e.id}/rotate">Rotate the secret</a>
<a class="button danger" href="/app/webhooks/${e.id}/delete">Delete endpoint</a>
</div></section>`;
}

function editCard(e: WebhookEndpoint, session: SessionContext, answers?: EndpointAnswers): SafeHtml {
  const shown = answers ?? { url: e.url, events: e.events };
  return html`<section class="card" aria-labelledby="edit-heading"><h2 id="edit-heading">Change the URL or the events</h2>
<form method="post" action="/app/webhooks/${e.id}" novalidate>${csrfField(session.csrfToken)}
${endpointFields(shown)}
<button type="submit">Save changes</button></form></section>`;
}

async function showEndpoint(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  id: string,
  options: { query?: unknown; status?: number; answers?: EndpointAnswers; error?: string } = {},
) {
  const endpoint = await ownedEndpointOrPage(deps.webhooks, session.accountId, id);
  const deliveries = await deliveriesSection(deps, session, endpoint.id, deliveryQueryOf(options.query));
  const body = html`<p><a href="/app/webhooks">← All endpoints</a></p>
${factsCard(deps, endpoint, session)}
${editCard(endpoint, session, options.answers)}
${deliveries}`;
  return html200(
    reply,
    options.status ?? 200,
    page({
      title: 'Webhook endpoint',
      session,
      section: 'webhooks',
      notice: noticeOf(options.query),
      error: options.error,
      body,
    }),
  );
}

/** Turning off and on, and a test event: the domain's moves, then back to the page with what was done. */
const SWITCHES = {
  disable: {
    act: (d: PortalDeps, a: string, id: string) => updateEndpoint(d.webhooks, a, id, { enabled: false }),
    notice: 'webhook-disabled',
  },
  enable: {
    act: (d: PortalDeps, a: string, id: string) => updateEndpoint(d.webhooks, a, id, { enabled: true }),
    notice: 'webhook-enabled',
  },
  test: {
    act: (d: PortalDeps, a: string, id: string) => sendTestEvent(d.webhooks, a, id),
    notice: 'webhook-test-sent',
  },
} as const;

function registerChanges(portal: FastifyInstance, deps: PortalDeps): void {
  portal.post('/webhooks/:id', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    await ownedEndpointOrPage(deps.webhooks, session.accountId, id);
    const answers = endpointAnswers(deps.webhooks, request.body);
    if (!answersAreFine(answers)) return showEndpoint(deps, reply, session, id, { status: 400, answers });
    await updateEndpoint(deps.webhooks, session.accountId, id, { url: answers.url, events: answers.events });
    return reply.redirect(`/app/webhooks/${id}?notice=webhook-saved`, 303);
  });
  for (const [action, { act, notice }] of Object.entries(SWITCHES)) {
    portal.post(`/webhooks/:id/${action}`, async (request, reply) => {
      const session = sessionOf(request);
      const id = param(request.params, 'id');
      try {
        await act(deps, session.accountId, id);
      } catch (error) {
        // A change meanwhile (turned off in another tab, then tested here) is told on the page.
        if (!(error instanceof GatewayError) || error.code !== 'conflict') throw error;
        return showEndpoint(deps, reply, session, id, { status: 409, error: error.message });
      }
      return reply.redirect(`/app/webhooks/${id}?notice=${notice}`, 303);
    });
  }
}

function registerRotation(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/webhooks/:id/rotate', async (request, reply) => {
    const session = sessionOf(request);
    const e = await ownedEndpointOrPage(deps.webhooks, session.accountId, param(request.params, 'id'));
    const body = html`<section class="card"><p>Give <code>${e.url}</code> a new signing secret? For 24 hours every event is signed with both the new and the old secret, so your application can switch over without missing one; then only the new one signs.</p>
<div class="actions"><form method="post" action="/app/webhooks/${e.id}/rotate">${csrfField(session.csrfToken)}<button type="submit">Rotate the secret</button></form>
<a class="button secondary" href="/app/webhooks/${e.id}">Cancel</a></div></section>`;
    return html200(
      reply,
      200,
      page({ title: 'Rotate the signing secret', session, section: 'webhooks', body }),
    );
  });
  portal.post('/webhooks/:id/rotate', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const rotated = await rotateEndpointSecret(deps.webhooks, session.accountId, id);
    const body = html`<section class="card"><p>The new signing secret of <code>${rotated.endpoint.url}</code>:</p>
${copyable(rotated.secret, 'the new signing secret')}
<p>The previous secret also signs every event until ${when(rotated.previousUntil)}. Give your application the new one before then.</p>
<p><a href="/app/webhooks/${id}">Back to the endpoint</a></p></section>`;
    return html200(reply, 200, page({ title: 'New signing secret', session, section: 'webhooks', body }));
  });
}

export function registerEndpointPage(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/webhooks/:id', async (request, reply) =>
    showEndpoint(deps, reply, sessionOf(request), param(request.params, 'id'), { query: request.query }),
  );
  registerChanges(portal, deps);
  registerRotation(portal, deps);
}
