/**
 * /app/dashboard, where /app opens: what the account's messaging did in the last 7, 30 or 90 days, for all
 * its numbers or one. Totals with the delivery and read rates; a chart of messages sent and received per
 * day, drawn on the server as SVG with a pattern for each series beside its colour, and the same figures
 * as a table; failures grouped by reason in words; the webhook deliveries' health; the latest campaigns.
 * The figures come from src/domain/dashboard.ts, counted as the API counts statuses.
 */
import type { FastifyInstance } from 'fastify';
import { countsOf } from '../../domain/campaigns/counts.ts';
import { DASHBOARD_DAYS, type Dashboard, type DashboardDays, dashboardOf } from '../../domain/dashboard.ts';
import { GatewayError } from '../../domain/errors.ts';
import { canOpen, type Role } from '../../domain/roles.ts';
import { normalizePhone } from '../../lib/phone.ts';
import { countsLine } from '../campaigns/campaign-progress.ts';
import { badge, select } from '../components.ts';
import { dayChart } from '../dashboard/day-chart.ts';
import { templatesCard } from '../dashboard/templates-card.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { failureReason } from '../failure-words.ts';
import { field } from '../forms.ts';
import { type HtmlValue, html, type SafeHtml } from '../html.ts';
import { page } from '../layout.ts';
import { noticeOf } from '../notices.ts';

const percentText = (n: number | null) => (n === null ? '—' : `${n}%`);

function tiles(d: Dashboard): SafeHtml {
  const t = d.totals;
  const tile = (label: string, value: string | number, hint = '') =>
    html`<div class="tile"><dt>${label}</dt><dd>${value}${hint ? html`<span class="hint"> ${hint}</span>` : ''}</dd></div>`;
  return html`<dl class="tiles">
${tile('Sent', t.sent)}${tile('Delivered', t.delivered, `(${percentText(d.rates.delivered)} of sent)`)}
${tile('Read', t.read, `(${percentText(d.rates.read)} of delivered)`)}${tile('Failed', t.failed)}
${tile('Received', t.received)}${t.pending ? tile('Awaiting the network', t.pending) : ''}
</dl>`;
}

/** Failures grouped by what they come down to, most first. */
function failuresCard(d: Dashboard): SafeHtml {
  const byReason = new Map<string, number>();
  for (const f of d.failures) {
    const reason = failureReason(f.error);
    byReason.set(reason, (byReason.get(reason) ?? 0) + f.count);
  }
  const rows = [...byReason].sort((a, b) => b[1] - a[1]);
  return html`<section class="card" aria-labelledby="failures-heading"><h2 id="failures-heading">Failures by reason</h2>${
    rows.length
      ? html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Reason</th><th scope="col">Messages</th></tr></thead>
<tbody>${rows.map(([reason, n]) => html`<tr><td data-label="Reason">${reason}</td><td data-label="Messages">${n}</td></tr>`)}</tbody></table></div>`
      : html`<p>No message failed in this time.</p>`
  }</section>`;
}

/** A link to a section of the portal, for a role that may open it; its words alone otherwise. */
function linkFor(role: Role, section: string, href: string, words: HtmlValue): SafeHtml {
  return canOpen(role, section) ? html`<a href="${href}">${words}</a>` : html`${words}`;
}

function webhooksCard(d: Dashboard, role: Role): SafeHtml {
  const w = d.webhooks;
  const total = w.succeeded + w.failed + w.pending;
  const endpoints = canOpen(role, 'webhooks') ? html` <a href="/app/webhooks">Endpoints</a>` : '';
  return html`<section class="card" aria-labelledby="webhooks-heading"><h2 id="webhooks-heading">Webhook deliveries</h2>${
    total
      ? html`<p>${w.succeeded} succeeded, ${w.failed} failed, ${w.pending} waiting to be attempted again, of ${total} made in this time (every endpoint).${endpoints}</p>`
      : html`<p>No event was delivered in this time.</p>`
  }</section>`;
}

async function campaignsCard(deps: PortalDeps, accountId: string, role: Role): Promise<SafeHtml> {
  const { campaigns } = await deps.campaigns.campaigns.list(accountId, { offset: 0, limit: 5 });
  // The list read them already: only their counts are read (shared for a moment with the campaign pages).
  const rows = await Promise.all(
    campaigns.map(async (campaign) => ({
      campaign,
      counts: countsOf(await deps.campaigns.campaigns.tally(campaign)),
    })),
  );
  return html`<section class="card" aria-labelledby="campaigns-heading"><h2 id="campaigns-heading">Latest campaigns</h2>${
    rows.length
      ? html`<ul class="plain">${rows.map(({ campaign, counts }) => html`<li>${linkFor(role, 'campaigns', `/app/campaigns/${campaign.id}`, campaign.name)} ${badge(campaign.status)} <span class="hint">${countsLine(campaign, counts)}</span></li>`)}</ul>`
      : html`<p>No campaigns yet.${canOpen(role, 'campaigns') ? html` <a href="/app/campaigns/new">Create one</a>` : ''}</p>`
  }</section>`;
}

/** The range and number asked for; anything else is a 400 naming its field. */
function filtersOf(query: unknown, phones: string[]): { days: DashboardDays; number: string } {
  const rawDays = field(query, 'days', 3) || '7';
  const days = DASHBOARD_DAYS.find((d) => String(d) === rawDays);
  if (!days)
    throw new GatewayError('invalid_request', `\`days\` must be one of ${DASHBOARD_DAYS.join(', ')}`, {
      field: 'days',
    });
  const rawNumber = field(query, 'number', 20);
  const number = rawNumber ? (normalizePhone(rawNumber) ?? '') : '';
  if (rawNumber && !phones.includes(number))
    throw new GatewayError('invalid_request', "`number` must be one of the account's numbers", {
      field: 'number',
    });
  return { days, number };
}

function filterForm(days: number, number: string, phones: string[]): SafeHtml {
  return html`<form method="get" action="/app/dashboard" class="filters" aria-label="Dashboard range">
${select({ name: 'days', label: 'Time', value: String(days), options: DASHBOARD_DAYS.map((d) => [String(d), `Last ${d} days`] as [string, string]) })}
${select({ name: 'number', label: 'Number', value: number, options: [['', 'All numbers'], ...phones.map((p) => [p, `+${p}`] as [string, string])] })}
<div class="field"><button type="submit" class="secondary">Show</button></div>
</form>`;
}

export function registerDashboard(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/dashboard', async (request, reply) => {
    const session = sessionOf(request);
    const own = await deps.repos.numbers.listNumbersOfAccount(session.accountId);
    const phones = [deps.config.sandboxNumber, ...own.map((n) => n.phone)];
    const { days, number } = filtersOf(request.query, phones);
    const d = await dashboardOf(deps.dashboard, session.accountId, {
      days,
      number: number || undefined,
      now: Date.now(),
    });
    const body = html`${filterForm(days, number, phones)}
<section class="card" aria-labelledby="totals-heading"><h2 id="totals-heading">Last ${days} days${number ? ` from +${number}` : ''}</h2>
${tiles(d)}
${dayChart(d.days)}
</section>
${failuresCard(d)}
${templatesCard(d, session.accountId)}
${webhooksCard(d, session.role)}
${await campaignsCard(deps, session.accountId, session.role)}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page({ title: 'Dashboard', session, section: 'dashboard', body, notice: noticeOf(request.query) }),
      );
  });
}
