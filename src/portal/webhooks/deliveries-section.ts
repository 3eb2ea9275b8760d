/**
 * An endpoint's deliveries on its page (src/portal/pages/webhook-endpoint.ts): filtered by status and by
 * event type, a page at a time, newest first; each with the body that was posted and every attempt's
 * answer (status code, latency, the start of the response body, or why it failed), and a button to
 * deliver it again. Everything shown came from outside or from the account: escaped, never markup.
 */
import { GatewayError } from '../../domain/errors.ts';
import { eventTypes } from '../../domain/event-types.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import type { Delivery } from '../../domain/ports/webhook-endpoints.ts';
import { listDeliveries, TEST_EVENT_TYPE } from '../../domain/webhook-endpoints.ts';
import { badge, select, when } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { field, pageNumber } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../layout.ts';

export const DELIVERIES_PER_PAGE = 20;
const STATUSES = ['pending', 'succeeded', 'failed'] as const;
const TYPES = [...eventTypes, TEST_EVENT_TYPE];

export interface DeliveryQuery {
  status: string;
  eventType: string;
  page: number;
}

/** The filter from the query string; a value that is not one of the choices is a 400 naming its field. */
export function deliveryQueryOf(query: unknown): DeliveryQuery {
  const status = field(query, 'status', 20);
  const eventType = field(query, 'event_type', 60);
  if (status && !(STATUSES as readonly string[]).includes(status))
    throw new GatewayError('invalid_request', `\`status\` must be one of ${STATUSES.join(', ')}`, {
      field: 'status',
    });
  if (eventType && !TYPES.includes(eventType))
    throw new GatewayError('invalid_request', `\`event_type\` must be one of ${TYPES.join(', ')}`, {
      field: 'event_type',
    });
  return { status, eventType, page: pageNumber(query) };
}

/** The posted body, indented when it is JSON (it always is, unless a row was written by hand). */
function bodyText(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function attemptsTable(d: Delivery): SafeHtml {
  if (d.attempts.length === 0) return html`<p>No attempt yet.</p>`;
  return html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Attempts of this delivery</caption>
<thead><tr><th scope="col">Time</th><th scope="col">Status code</th><th scope="col">Latency</th><th scope="col">Response or error</th></tr></thead>
<tbody>${d.attempts.map(
    (a) =>
      html`<tr><td data-label="Time">${when(a.at)}</td><td data-label="Status code">${a.statusCode ?? '—'}</td><td data-label="Latency">${a.latencyMs} ms</td><td data-label="Response or error">${a.error ? a.error : a.responseBody ? html`<code class="response-body">${a.responseBody}</code>` : '—'}</td></tr>`,
  )}</tbody></table></div>`;
}

function deliveryCard(d: Delivery, endpointId: string, session: SessionContext): SafeHtml {
  return html`<section class="card delivery"><h3>${d.eventType} ${badge(d.status)}</h3>
<p class="hint">Created ${when(d.createdAt)}${d.status === 'pending' ? html`; next attempt ${when(d.nextAttemptAt)}` : ''}</p>
<details><summary>Request body<span class="visually-hidden"> of this ${d.eventType} delivery</span></summary><pre class="payload">${bodyText(d.payload)}</pre></details>
${attemptsTable(d)}
<form method="post" action="/app/webhooks/${endpointId}/deliveries/${d.id}/redeliver">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Redeliver<span class="visually-hidden"> ${d.eventType} delivery</span></button></form>
</section>`;
}

function filterForm(endpointId: string, q: DeliveryQuery): SafeHtml {
  return html`<form method="get" action="/app/webhooks/${endpointId}" class="filters" aria-label="Filter deliveries">
${select({ name: 'status', label: 'Status', value: q.status, options: [['', 'All'], ...STATUSES] })}
${select({ name: 'event_type', label: 'Event type', value: q.eventType, options: [['', 'All'], ...TYPES] })}
<div class="field"><button type="submit" class="secondary">Filter</button></div>
</form>`;
}

function pager(endpointId: string, q: DeliveryQuery, more: boolean): SafeHtml | string {
  const link = (page: number) => {
    const query = new URLSearchParams({
      ...(q.status ? { status: q.status } : {}),
      ...(q.eventType ? { event_type: q.eventType } : {}),
      page: String(page),
    });
    return `/app/webhooks/${endpointId}?${query}`;
  };
  if (q.page === 1 && !more) return '';
  return html`<nav class="pager" aria-label="Pages of deliveries"><p>Page ${q.page}
${q.page > 1 ? html` · <a href="${link(q.page - 1)}">Newer</a>` : ''}${more ? html` · <a href="${link(q.page + 1)}">Older</a>` : ''}</p></nav>`;
}

/** The section: the filter, a page of deliveries (one more is read to know whether another page follows). */
export async function deliveriesSection(
  deps: PortalDeps,
  session: SessionContext,
  endpointId: string,
  q: DeliveryQuery,
): Promise<SafeHtml> {
  const found = await listDeliveries(deps.webhooks, session.accountId, endpointId, {
    status: q.status || undefined,
    eventType: q.eventType || undefined,
    offset: (q.page - 1) * DELIVERIES_PER_PAGE,
    limit: DELIVERIES_PER_PAGE + 1,
  });
  const shown = found.slice(0, DELIVERIES_PER_PAGE);
  return html`<section aria-labelledby="deliveries-heading"><h2 id="deliveries-heading">Deliveries</h2>
${filterForm(endpointId, q)}
${shown.length ? shown.map((d) => deliveryCard(d, endpointId, session)) : html`<p>No deliveries${q.status || q.eventType ? ' match this filter' : ' yet'}.</p>`}
${pager(endpointId, q, found.length > DELIVERIES_PER_PAGE)}
</section>`;
}
