/**
 * /app/campaigns: the account's campaigns, newest first and paged, each with its status and counts, and
 * the way to a new one (campaign-wizard.ts) and to each one's page (campaign-detail.ts). Reads go through
 * the same store port and counts as `GET /api/v1/campaigns` (src/http/routes/campaigns/manage.ts),
 * scoped by account.
 */
import type { FastifyInstance } from 'fastify';
import { countsOf } from '../../domain/campaigns/counts.ts';
import type { Campaign } from '../../domain/ports/campaigns.ts';
import { countsLine } from '../campaigns/campaign-progress.ts';
import { badge, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { pageNumber } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { registerCampaignDetail } from './campaign-detail.ts';
import { registerCampaignWizard } from './campaign-wizard.ts';

const PER_PAGE = 20;

function row(c: Campaign, counts: string): SafeHtml {
  return html`<tr><td data-label="Campaign"><a href="/app/campaigns/${c.id}">${c.name}</a></td><td data-label="Status">${badge(c.status)}</td>
<td data-label="From">+${c.from}</td><td data-label="Template"><code>${c.template.name}</code> · ${c.template.language}</td>
<td data-label="Progress">${counts}</td><td data-label="Created">${when(c.createdAt)}</td></tr>`;
}

function pager(pageNo: number, total: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return html`<nav aria-label="Pages of campaigns" class="pager"><p>Page ${pageNo} of ${pages} (${total} campaigns)</p>${
    pageNo > 1 ? html`<a href="/app/campaigns?page=${pageNo - 1}">Newer</a> ` : ''
  }${pageNo < pages ? html`<a href="/app/campaigns?page=${pageNo + 1}">Older</a>` : ''}</nav>`;
}

export function registerCampaignPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/campaigns', async (request, reply) => {
    const session = sessionOf(request);
    const pageNo = pageNumber(request.query);
    const store = deps.campaigns.campaigns;
    const { campaigns, total } = await store.list(session.accountId, {
      offset: (pageNo - 1) * PER_PAGE,
      limit: PER_PAGE,
    });
    const rows = await Promise.all(
      campaigns.map(async (c) => row(c, countsLine(c, countsOf(await store.tally(c))))),
    );
    const body = html`<p><a class="button" href="/app/campaigns/new">New campaign</a></p>
<section class="card"><h2>Your campaigns</h2>
<p>A campaign sends one approved template to many people (contacts with some tags, or the rows of a CSV file), each with their own values, paced within the number's limits.</p>
${
  rows.length
    ? html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Campaigns, newest first</caption>
<thead><tr><th scope="col">Campaign</th><th scope="col">Status</th><th scope="col">From</th><th scope="col">Template</th><th scope="col">Progress</th><th scope="col">Created</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p>${pageNo > 1 ? 'No campaigns on this page.' : 'No campaigns yet. Choose "New campaign" to make one.'}</p>`
}
${pager(pageNo, total)}</section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page({ title: 'Campaigns', session, section: 'campaigns', notice: noticeOf(request.query), body }),
      );
  });

  registerCampaignWizard(portal, deps);
  registerCampaignDetail(portal, deps);
}
