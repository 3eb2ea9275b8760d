/**
 * /app/inbox: the conversations customers started with the account's numbers (docs/inbox.md), newest
 * activity first, with their unread counts; filtered by state, by who has them, and by words of the
 * customer's number or name or of a message. The list follows new messages live (inbox/inbox-live.ts).
 */
import type { FastifyInstance } from 'fastify';
import { assignableMembers, replyWindow } from '../../domain/inbox/inbox-service.ts';
import type { Conversation, InboxFilter } from '../../domain/ports/inbox.ts';
import type { Member } from '../../domain/ports/portal.ts';
import { userLabel } from '../../lib/user-id.ts';
import { input, select, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, pageNumber } from '../forms.ts';
import { html, isolate, type SafeHtml } from '../html.ts';
import { registerInboxLive } from '../inbox/inbox-live.ts';
import { windowLeft } from '../inbox/window-words.ts';
import { page } from '../layout.ts';
import { registerConversationPages } from './inbox-conversation.ts';
import { registerSavedReplyPages } from './inbox-saved-replies.ts';

const PAGE_SIZE = 30;

interface ListSearch {
  state: string;
  who: string;
  q: string;
}

function readListSearch(query: unknown): ListSearch {
  const state = field(query, 'state', 10);
  const who = field(query, 'who', 12);
  return {
    state: state === 'closed' || state === 'all' ? state : 'open',
    who: who === 'mine' || who === 'unassigned' ? who : 'anyone',
    q: field(query, 'q', 100).trim(),
  };
}

function filterOf(search: ListSearch, userId: string): InboxFilter {
  return {
    ...(search.state === 'all' ? {} : { state: search.state === 'closed' ? 'closed' : 'open' }),
    ...(search.who === 'mine'
      ? { assignee: userId }
      : search.who === 'unassigned'
        ? { assignee: 'unassigned' }
        : {}),
    ...(search.q ? { search: search.q } : {}),
  };
}

function listQuery(search: ListSearch, pageNo: number): string {
  const params = new URLSearchParams({ state: search.state, who: search.who });
  if (search.q) params.set('q', search.q);
  if (pageNo > 1) params.set('page', String(pageNo));
  return `/app/inbox?${params}`;
}

function searchForm(search: ListSearch): SafeHtml {
  return html`<form method="get" action="/app/inbox" class="filters" role="search" aria-label="Search conversations">
${select({
  name: 'state',
  label: 'State',
  value: search.state,
  options: [
    ['open', 'Open'],
    ['closed', 'Closed'],
    ['all', 'All'],
  ],
})}
${select({
  name: 'who',
  label: 'Assigned to',
  value: search.who,
  options: [
    ['anyone', 'Anyone'],
    ['mine', 'Me'],
    ['unassigned', 'Nobody'],
  ],
})}
${input({ name: 'q', label: 'Customer or words', type: 'search', value: search.q, autocomplete: 'off' })}
<div class="field"><button type="submit">Search</button></div></form>`;
}

function row(c: Conversation, members: Map<string, string>, now: number): SafeHtml {
  // A number is never broken across lines; a long name may be.
  const number = html`<span class="number">${userLabel(c.userPhone)}</span>`;
  const customer = c.profileName ? html`${isolate(c.profileName)} (${number})` : number;
  return html`<tr${c.unread ? html` class="unread"` : ''}><td data-label="Customer"><a href="/app/inbox/${c.id}">${customer}</a>${
    c.unread ? html` <span class="count" aria-label="${c.unread} unread">${c.unread}</span>` : ''
  }</td><td data-label="Last message">${c.preview}</td><td data-label="Activity">${when(c.lastActivityAt)}</td><td data-label="24-hour window">${windowLeft(replyWindow(c, now), now)}</td>
<td data-label="Number">+${c.businessPhone}</td><td data-label="Assigned to">${c.assigneeId ? (members.get(c.assigneeId) ?? 'a former member') : '—'}</td>
<td data-label="State">${c.state === 'open' ? 'Open' : 'Closed'}</td></tr>`;
}

function table(rows: Conversation[], members: Member[], searching: boolean): SafeHtml {
  if (!rows.length)
    return html`<p>${searching ? 'No conversation matches this search.' : 'No conversations yet: they start when a customer writes to one of your numbers.'}</p>`;
  const names = new Map(members.map((m) => [m.id, m.email]));
  const now = Date.now();
  return html`<div class="table-wrap"><table class="stack conversations"><caption class="visually-hidden">Conversations, newest activity first</caption>
<thead><tr><th scope="col">Customer</th><th scope="col">Last message</th><th scope="col">Activity</th><th scope="col">24-hour window</th><th scope="col">Number</th><th scope="col">Assigned to</th><th scope="col">State</th></tr></thead>
<tbody>${rows.map((c) => row(c, names, now))}</tbody></table></div>`;
}

export function registerInboxPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/inbox', async (request, reply) => {
    const session = sessionOf(request);
    const search = readListSearch(request.query);
    const pageNo = pageNumber(request.query);
    const { inbox } = deps.inbox;
    const [result, members, unread] = await Promise.all([
      inbox.list(session.accountId, filterOf(search, session.userId), (pageNo - 1) * PAGE_SIZE, PAGE_SIZE),
      assignableMembers(deps.inbox, session.accountId),
      inbox.unreadTotal(session.accountId),
    ]);
    const pager = html`<nav class="pager" aria-label="Pages">
${pageNo > 1 ? html`<a href="${listQuery(search, pageNo - 1)}" rel="prev">Newer</a>` : ''}
${result.hasMore ? html`<a href="${listQuery(search, pageNo + 1)}" rel="next">Older</a>` : ''}</nav>`;
    const body = html`${searchForm(search)}
<div data-live-stream="/app/inbox/live">
<p class="hint" role="status" data-live-part="unread">${unread ? `${unread} unread message${unread === 1 ? '' : 's'} in open conversations.` : 'Nothing unread.'}</p>
<div data-live-part="conversations">${table(result.rows, members, Boolean(search.q) || search.who !== 'anyone' || search.state !== 'open')}${pager}</div></div>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Inbox', session, section: 'inbox', body }));
  });
  registerSavedReplyPages(portal, deps);
  registerConversationPages(portal, deps);
  registerInboxLive(portal, deps);
}
