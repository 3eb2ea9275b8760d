/**
 * /app/campaigns/:id: one campaign with its live counts (a progress bar and a chart, redrawn by portal.js
 * from /app/campaigns/:id/progress while it is under way), its settings, the buttons of its life (start,
 * pause, resume; cancel after a confirmation), and its recipients, filtered by status, paged, and
 * exported as CSV. Every change goes through the domain functions the API calls
 * (src/domain/campaigns/campaign-control.ts); another account's campaign is a 404.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  startCampaign,
} from '../../domain/campaigns/campaign-control.ts';
import { campaignWithCounts, ownedCampaign } from '../../domain/campaigns/campaign-service.ts';
import { campaignTimeline, type Timeline } from '../../domain/campaigns/campaign-timeline.ts';
import type { CampaignCounts } from '../../domain/campaigns/counts.ts';
import { recipientsCsv } from '../../domain/campaigns/recipient-rows.ts';
import { GatewayError } from '../../domain/errors.ts';
import { type Campaign, type RecipientFilter, recipientFilters } from '../../domain/ports/campaigns.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import {
  isLive,
  progressBar,
  progressJson,
  skippedWords,
  statusChart,
} from '../campaigns/campaign-progress.ts';
import { placeholderWords, startWords } from '../campaigns/campaign-review.ts';
import { timelineFigure } from '../campaigns/campaign-timeline-chart.ts';
import { badge, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { failureInWords } from '../failure-words.ts';
import { field, param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { type RecipientQuery, recipientsSection } from './campaign-recipients.ts';

const UNDER_WAY = ['DRAFT', 'SCHEDULED', 'RUNNING', 'PAUSED'];

/** What the status means now, in words; a reason the gateway gave is quoted. */
function statusWords(c: Campaign): SafeHtml {
  const reason = c.statusReason ? failureInWords(c.statusReason) : '';
  switch (c.status) {
    case 'DRAFT':
      return html`Not started yet: start it when it is ready.`;
    case 'SCHEDULED':
      return html`Starts by itself at ${startWords(c)}.`;
    case 'RUNNING':
      return html`Sending now.`;
    case 'PAUSED':
      return reason
        ? html`Paused by the gateway: ${reason}. Resume it once the cause is dealt with.`
        : html`Paused: nothing more is sent until it is resumed.`;
    case 'COMPLETED':
      return html`Every recipient was handled${c.completedAt ? html` at ${when(c.completedAt)}` : ''}.`;
    default:
      return html`Cancelled${reason ? `: ${reason}` : ''}. Recipients not yet sent to were not sent to.`;
  }
}

function actionButton(c: Campaign, session: SessionContext, action: string, label: string): SafeHtml {
  return html`<form method="post" action="/app/campaigns/${c.id}/${action}">${csrfField(session.csrfToken)}<button type="submit">${label}</button></form>`;
}

function actions(c: Campaign, session: SessionContext): SafeHtml | string {
  if (!UNDER_WAY.includes(c.status)) return '';
  return html`<div class="actions">
${c.status === 'DRAFT' ? actionButton(c, session, 'start', 'Start') : ''}
${c.status === 'RUNNING' || c.status === 'SCHEDULED' ? actionButton(c, session, 'pause', 'Pause') : ''}
${c.status === 'PAUSED' ? actionButton(c, session, 'resume', 'Resume') : ''}
<a class="button danger" href="/app/campaigns/${c.id}/cancel">Cancel campaign</a>
</div>`;
}

function audienceWords(c: Campaign): string {
  const a = c.audience;
  if ('tags' in a) return `Contacts tagged ${a.tags.join(', ')}`;
  if ('contactIds' in a) return `${a.contactIds.length} chosen contacts`;
  return c.total === null ? 'A CSV file, not uploaded yet' : 'A CSV file';
}

function settingsCard(c: Campaign): SafeHtml {
  const header = c.template.header;
  return html`<section class="card" aria-labelledby="settings-heading"><h2 id="settings-heading">Settings</h2><dl class="facts">
<dt>From</dt><dd>+${c.from}</dd>
<dt>Template</dt><dd><code>${c.template.name}</code> · ${c.template.language}</dd>
${header ? html`<dt>Header</dt><dd>${header.parameter ?? header.mediaUrl ?? header.mediaId ?? ''}</dd>` : ''}
<dt>Audience</dt><dd>${audienceWords(c)}${c.total === null ? '' : ` (${c.total} recipients)`}</dd>
<dt>Placeholders</dt><dd>${c.parameters.length ? html`<ul class="plain">${c.parameters.map((p, i) => html`<li>{{${i + 1}}}: ${placeholderWords(p)}</li>`)}</ul>` : 'None'}</dd>
<dt>Starts</dt><dd>${startWords(c)}</dd>
<dt>Created</dt><dd>${when(c.createdAt)}</dd>
${c.startedAt ? html`<dt>Started</dt><dd>${when(c.startedAt)}</dd>` : ''}
${c.completedAt ? html`<dt>Completed</dt><dd>${when(c.completedAt)}</dd>` : ''}
</dl></section>`;
}

function statusCard(
  c: Campaign,
  counts: CampaignCounts,
  session: SessionContext,
  timeline: Timeline | undefined,
): SafeHtml {
  return html`<section class="card" aria-labelledby="status-heading" id="campaign-live" data-progress="/app/campaigns/${c.id}/progress" data-status="${c.status}"${isLive(c, counts) ? html` data-live` : ''}>
<h2 id="status-heading">Status</h2>
<p>${badge(c.status)} ${statusWords(c)}</p>
${progressBar(counts)}
${statusChart(counts)}
<h3>Over time</h3>
<div data-timeline="/app/campaigns/${c.id}/timeline">${timelineFigure(timeline, counts.total, c.startedAt)}</div>
${skippedWords(counts)}
${actions(c, session)}
</section>`;
}

function queryOf(raw: unknown): { query: RecipientQuery; error?: string } {
  const status = field(raw, 'status', 20);
  const pageNo = Number(field(raw, 'page', 7) || 1);
  const query: RecipientQuery = { status: '', page: Number.isSafeInteger(pageNo) && pageNo > 0 ? pageNo : 1 };
  if (status && !(recipientFilters as readonly string[]).includes(status)) {
    return { query, error: `Status must be one of ${recipientFilters.join(', ')}.` };
  }
  return { query: { ...query, status: status as RecipientFilter | '' } };
}

export async function showCampaign(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  id: string,
  options: { query?: unknown; status?: number; error?: string } = {},
) {
  const { campaign, counts } = await campaignWithCounts(deps.campaigns, session.accountId, id);
  const { query, error: filterError } = queryOf(options.query);
  const recipients = await recipientsSection(deps, campaign, query, filterError);
  const timeline = await campaignTimeline(deps.campaigns.campaigns, campaign, Date.now());
  const body = html`<p><a href="/app/campaigns">← All campaigns</a></p>
${statusCard(campaign, counts, session, timeline)}
${settingsCard(campaign)}
${recipients}`;
  return reply
    .code(options.status ?? (filterError ? 400 : 200))
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: campaign.name,
        session,
        section: 'campaigns',
        notice: noticeOf(options.query),
        error: options.error,
        body,
      }),
    );
}

const CONTROLS = {
  start: {
    act: startCampaign,
    notice: (c: Campaign) => (c.status === 'SCHEDULED' ? 'campaign-scheduled' : 'campaign-started'),
  },
  pause: { act: pauseCampaign, notice: () => 'campaign-paused' },
  resume: { act: resumeCampaign, notice: () => 'campaign-resumed' },
  cancel: { act: cancelCampaign, notice: () => 'campaign-cancelled' },
} as const;

/** Start, pause, resume, cancel: the domain's moves; a refusal (a change meanwhile) is shown on the page. */
function registerControls(portal: FastifyInstance, deps: PortalDeps): void {
  for (const [action, { act, notice }] of Object.entries(CONTROLS)) {
    portal.post(`/campaigns/:id/${action}`, async (request, reply) => {
      const session = sessionOf(request);
      const id = param(request.params, 'id');
      try {
        const moved = await act(deps.campaigns, session.accountId, id);
        return reply.redirect(`/app/campaigns/${moved.id}?notice=${notice(moved)}`, 303);
      } catch (error) {
        if (!(error instanceof GatewayError) || error.status >= 500 || error.code === 'not_found')
          throw error;
        return showCampaign(deps, reply, session, id, { status: error.status, error: error.message });
      }
    });
  }
  portal.get('/campaigns/:id/cancel', async (request, reply) => {
    const session = sessionOf(request);
    const c = await ownedCampaign(deps.campaigns, session.accountId, param(request.params, 'id'));
    const body = html`<section class="card">
<p>Cancel the campaign <strong>${c.name}</strong> (${c.status})? Recipients not yet sent to will not be sent to, and it cannot be started again. This cannot be undone.</p>
<div class="actions">
<form method="post" action="/app/campaigns/${c.id}/cancel">${csrfField(session.csrfToken)}<button type="submit" class="danger">Cancel the campaign</button></form>
<a class="button secondary" href="/app/campaigns/${c.id}">Keep it</a>
</div></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Cancel campaign', session, section: 'campaigns', body }));
  });
}

export function registerCampaignDetail(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/campaigns/:id', async (request, reply) =>
    showCampaign(deps, reply, sessionOf(request), param(request.params, 'id'), { query: request.query }),
  );

  portal.get('/campaigns/:id/progress', async (request, reply) => {
    const session = sessionOf(request);
    const { campaign, counts } = await campaignWithCounts(
      deps.campaigns,
      session.accountId,
      param(request.params, 'id'),
    );
    return reply.type('application/json; charset=utf-8').send(progressJson(campaign, counts));
  });

  portal.get('/campaigns/:id/timeline', async (request, reply) => {
    const session = sessionOf(request);
    const { campaign, counts } = await campaignWithCounts(
      deps.campaigns,
      session.accountId,
      param(request.params, 'id'),
    );
    const timeline = await campaignTimeline(deps.campaigns.campaigns, campaign, Date.now());
    return reply
      .type('text/html; charset=utf-8')
      .send(timelineFigure(timeline, counts.total, campaign.startedAt).toString());
  });

  portal.get('/campaigns/:id/recipients.csv', async (request, reply) => {
    const session = sessionOf(request);
    const campaign = await ownedCampaign(deps.campaigns, session.accountId, param(request.params, 'id'));
    const { query, error } = queryOf(request.query);
    if (error) throw new GatewayError('invalid_request', error, { field: 'status' });
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${campaign.id}-recipients.csv"`);
    return reply.send(Readable.from(recipientsCsv(deps.campaigns, campaign, query.status || undefined)));
  });

  registerControls(portal, deps);
}
