/**
 * /app/messages: the account's message log, newest first and paged, sent ("out") and received ("in") on
 * two tabs, searchable by number, status and date range; /app/messages/:id: one sent message with its
 * status timeline. Another account's message id is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { messageStatuses } from '../../domain/message-status.ts';
import { messageSummary } from '../../domain/message-summary.ts';
import type { LogFilters } from '../../domain/ports/message-log.ts';
import { withOwnTemplateNames } from '../../domain/templates/sandbox-names.ts';
import { badge, input, select, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { failureInWords } from '../failure-words.ts';
import { pageNumber, param } from '../forms.ts';
import { html, isolate, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';
import { readSearch, type Search, type SearchErrors } from '../messages/log-search.ts';
import { registerMessagesCsv } from '../messages/messages-csv.ts';
import { receivedMediaLinks } from '../received-media.ts';

const PAGE_SIZE = 25;
/** The link to the gateway's copy of a file a user sent (src/lib/media-serving.ts decides how it is served). */
function fileLink(href: string | undefined, type: string): SafeHtml | string {
  return href ? html` <a href="${href}">Open the ${type}</a>` : '';
}

/** The search as a query string: the fields given, and the page when it is not the first. */
function searchQuery(search: Search, pageNo = 1): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (v) params.set(k, v);
  if (pageNo > 1) params.set('page', String(pageNo));
  return params.toString();
}

function queryOf(search: Search, pageNo: number): string {
  return `/app/messages?${searchQuery(search, pageNo)}`;
}

/** The CSV export of what the search keeps: every row, not only this page. */
function exportLink(search: Search): SafeHtml {
  return html`<p><a href="/app/messages.csv?${searchQuery(search)}" download>Export ${search.tab === 'out' ? 'sent' : 'received'} messages as CSV</a></p>`;
}

function searchForm(search: Search, errors: SearchErrors): SafeHtml {
  return html`<form method="get" action="/app/messages" class="filters" role="search" aria-label="Search messages">
<input type="hidden" name="tab" value="${search.tab}">
${input({ name: 'number', label: 'Number', type: 'search', value: search.number, error: errors.number, autocomplete: 'off' })}
${search.tab === 'out' ? select({ name: 'status', label: 'Status', value: search.status, error: errors.status, options: [['', 'Any'], ...messageStatuses] }) : ''}
${input({ name: 'from', label: 'From (UTC)', type: 'date', value: search.from, error: errors.from })}
${input({ name: 'to', label: 'To (UTC)', type: 'date', value: search.to, error: errors.to })}
<div class="field"><button type="submit">Search</button></div>
</form>`;
}

/** One page of the sent messages, newest first. */
async function sentTable(
  deps: PortalDeps,
  accountId: string,
  filters: LogFilters,
  offset: number,
): Promise<{ table: SafeHtml; hasMore: boolean }> {
  const result = await deps.messageLog.listSent(accountId, filters, offset, PAGE_SIZE);
  const table = result.rows.length
    ? html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Sent messages, newest first</caption>
<thead><tr><th scope="col">Sent</th><th scope="col">To</th><th scope="col">Message</th><th scope="col">Status</th></tr></thead>
<tbody>${result.rows.map(
        (m) => html`<tr><td data-label="Sent">${when(m.createdAt)}</td><td data-label="To">+${m.toPhone}</td>
<td data-label="Message"><a href="/app/messages/${m.id}">${withOwnTemplateNames(messageSummary(m.kind, m.content), accountId)}</a> <span class="hint">(${m.clientMessageId})</span></td>
<td data-label="Status">${badge(m.status)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No sent messages${filters.number || filters.status || filters.from || filters.until ? ' match this search' : ' yet'}.</p>`;
  return { table, hasMore: result.hasMore };
}

/** One page of the received messages, newest first, with links to the media users sent. */
async function receivedTable(
  deps: PortalDeps,
  accountId: string,
  filters: LogFilters,
  offset: number,
): Promise<{ table: SafeHtml; hasMore: boolean }> {
  const result = await deps.messageLog.listReceived(accountId, filters, offset, PAGE_SIZE);
  const files = await receivedMediaLinks(deps.media, accountId, result.rows);
  const table = result.rows.length
    ? html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Received messages, newest first</caption>
<thead><tr><th scope="col">Received</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Message</th></tr></thead>
<tbody>${result.rows.map(
        (m) => html`<tr><td data-label="Received">${when(m.receivedAt)}</td>
<td data-label="From">+${m.userPhone}${m.profileName ? html` (${isolate(m.profileName)})` : ''}</td><td data-label="To">+${m.businessPhone}</td>
<td data-label="Message">${badge('IN')} ${messageSummary(m.type, m.payload)}${fileLink(files.get(m.id), m.type)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p>No received messages${filters.number || filters.from || filters.until ? ' match this search' : ' yet'}.</p>`;
  return { table, hasMore: result.hasMore };
}

/** One sent message: its facts, its status timeline, and what was sent to the network. */
function registerMessageDetail(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/messages/:id', async (request, reply) => {
    const session = sessionOf(request);
    const message = await deps.messageLog.findSentOfAccount(session.accountId, param(request.params, 'id'));
    if (!message) throw new GatewayError('not_found', 'There is no such message in your account.');
    const timeline = await deps.repos.messages.timeline(message.id);
    let pretty = message.content;
    try {
      pretty = JSON.stringify(JSON.parse(message.content), null, 2);
    } catch {}
    const body = html`<p><a href="/app/messages">← All messages</a></p>
<section class="card"><dl class="facts">
<dt>messageId</dt><dd><code>${message.clientMessageId}</code></dd>
<dt>Status</dt><dd>${badge(message.status)}${message.error ? html` ${withOwnTemplateNames(failureInWords(message.error), session.accountId)}` : ''}</dd>
<dt>From</dt><dd>+${message.fromPhone}</dd>
<dt>To</dt><dd>+${message.toPhone}</dd>
<dt>Kind</dt><dd>${message.kind}</dd>
<dt>Network id</dt><dd>${message.waId ? html`<code>${message.waId}</code>` : '—'}</dd>
<dt>Created</dt><dd>${when(message.createdAt)}</dd>
</dl></section>
<h2>Status timeline</h2>
${
  timeline.length
    ? html`<ol class="timeline">${timeline.map((e) => html`<li>${badge(e.status)} ${when(e.at)}${e.error ? html` — ${withOwnTemplateNames(failureInWords(e.error), session.accountId)}` : ''}</li>`)}</ol>`
    : html`<p>No status yet: the network has not answered.</p>`
}
<h2>Content sent to the network</h2>
<pre><code>${pretty}</code></pre>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: `Message ${message.clientMessageId}`, session, section: 'messages', body }));
  });
}

export function registerMessagePages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/messages', async (request, reply) => {
    const session = sessionOf(request);
    const pageNo = pageNumber(request.query);
    const { search, filters, errors } = readSearch(request.query);
    const failed = Object.keys(errors).length > 0;
    const offset = (pageNo - 1) * PAGE_SIZE;
    let table: SafeHtml;
    let hasMore = false;
    if (failed) table = html``;
    else
      ({ table, hasMore } = await (search.tab === 'out' ? sentTable : receivedTable)(
        deps,
        session.accountId,
        filters,
        offset,
      ));
    const tabs = html`<ul class="tabs">
<li><a href="/app/messages"${search.tab === 'out' ? html` aria-current="page"` : ''}>Sent</a></li>
<li><a href="/app/messages?tab=in"${search.tab === 'in' ? html` aria-current="page"` : ''}>Received</a></li></ul>`;
    const pager = html`<nav class="pager" aria-label="Pages">
${pageNo > 1 ? html`<a href="${queryOf(search, pageNo - 1)}" rel="prev">Newer</a>` : ''}
${hasMore ? html`<a href="${queryOf(search, pageNo + 1)}" rel="next">Older</a>` : ''}</nav>`;
    return reply
      .code(failed ? 400 : 200)
      .type('text/html; charset=utf-8')
      .send(
        page({
          title: 'Messages',
          session,
          section: 'messages',
          error: failed ? 'The search has a problem; see the messages next to the fields.' : undefined,
          body: html`${tabs}${searchForm(search, errors)}${failed ? '' : exportLink(search)}${table}${pager}`,
        }),
      );
  });

  registerMessageDetail(portal, deps);
  registerMessagesCsv(portal, deps);
}
