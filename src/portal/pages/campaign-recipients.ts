/**
 * The recipients part of a campaign's page: a status filter, one page of recipients in the audience's
 * order, the pager, and the link to export them (those the filter keeps) as CSV.
 */

import { recipientStatus, recipientTo } from '../../domain/campaigns/recipient-rows.ts';
import { type Campaign, type RecipientFilter, recipientFilters } from '../../domain/ports/campaigns.ts';
import { badge, select, when } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { html, type SafeHtml } from '../html.ts';

const PER_PAGE = 50;

export interface RecipientQuery {
  status: RecipientFilter | '';
  page: number;
}

function link(campaign: Campaign, query: RecipientQuery, pageNo: number): string {
  const params = new URLSearchParams({
    ...(query.status ? { status: query.status } : {}),
    page: String(pageNo),
  });
  return `/app/campaigns/${campaign.id}?${params}#recipients-heading`;
}

function pager(campaign: Campaign, query: RecipientQuery, total: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return html`<nav aria-label="Pages of recipients" class="pager"><p>Page ${query.page} of ${pages} (${total} recipients)</p>${
    query.page > 1 ? html`<a href="${link(campaign, query, query.page - 1)}">Previous page</a> ` : ''
  }${query.page < pages ? html`<a href="${link(campaign, query, query.page + 1)}">Next page</a>` : ''}</nav>`;
}

function table(records: Awaited<ReturnType<PortalDeps['campaigns']['campaigns']['recipients']>>): SafeHtml {
  return html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Recipients in the audience's order</caption>
<thead><tr><th scope="col">#</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Replied</th><th scope="col">Sent</th><th scope="col">messageId</th></tr></thead>
<tbody>${records.map(
    (
      r,
    ) => html`<tr><td data-label="#">${r.seq + 1}</td><td data-label="To">${recipientTo(r)}</td><td data-label="Status">${badge(recipientStatus(r))}</td>
<td data-label="Reason">${r.reason ?? '—'}</td><td data-label="Replied">${r.replied ? 'Yes' : '—'}</td><td data-label="Sent">${r.sentAt === null ? '—' : when(r.sentAt)}</td><td data-label="messageId"><code>${r.messageId}</code></td></tr>`,
  )}</tbody></table></div>`;
}

export async function recipientsSection(
  deps: PortalDeps,
  campaign: Campaign,
  query: RecipientQuery,
  filterError: string | undefined,
): Promise<SafeHtml> {
  const filter = query.status || undefined;
  const [records, total] = filterError
    ? [[], 0]
    : await Promise.all([
        deps.campaigns.campaigns.recipients(campaign, filter, {
          afterSeq: -1,
          offset: (query.page - 1) * PER_PAGE,
          limit: PER_PAGE,
        }),
        deps.campaigns.campaigns.countRecipients(campaign, filter),
      ]);
  const exportHref = `/app/campaigns/${campaign.id}/recipients.csv${filter ? `?status=${filter}` : ''}`;
  return html`<section class="card" aria-labelledby="recipients-heading"><h2 id="recipients-heading">Recipients</h2>
<form method="get" action="/app/campaigns/${campaign.id}" class="filters" aria-label="Filter recipients">
${select({ name: 'status', label: 'Status', value: query.status, error: filterError, options: [['', 'All'], ...recipientFilters] })}
<div class="field"><button type="submit" class="secondary">Filter</button></div>
</form>
<p><a href="${exportHref}" download>Export ${filter ? `the ${filter} recipients` : 'all recipients'} as CSV</a></p>
${
  records.length
    ? table(records)
    : html`<p>${campaign.total === null ? 'The audience is read when the campaign starts.' : filter ? 'No recipient has this status.' : 'No recipients.'}</p>`
}
${filterError ? '' : pager(campaign, query, total)}</section>`;
}
