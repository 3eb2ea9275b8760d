/**
 * A campaign's counts (src/domain/campaigns/counts.ts) as the portal shows them: a summary line, a progress
 * bar and a bar chart drawn here as SVG, with every bar labelled in words and numbers so it reads without
 * colour; and the small JSON that portal.js polls to redraw them while the campaign is under way.
 * Elements portal.js updates carry `data-count` (a number), `data-bar` (a bar's width) or `data-percent`.
 */
import type { CampaignCounts } from '../../domain/campaigns/counts.ts';
import type { Campaign } from '../../domain/ports/campaigns.ts';
import { html, type SafeHtml } from '../html.ts';

const BARS = [
  ['queued', 'Queued'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['read', 'Read'],
  ['replied', 'Replied'],
  ['failed', 'Failed'],
  ['skipped', 'Skipped'],
] as const;
type BarKey = (typeof BARS)[number][0];

const SKIP_WORDS = [
  ['opted_out', 'opted out'],
  ['invalid_number', 'invalid number'],
  ['duplicate', 'duplicate'],
  ['missing_value', 'missing value'],
] as const;

/** The SVG's own units: the width of a full bar and the height of one labelled row. */
const CHART_WIDTH = 320;
const ROW = 44;

/** Every number the page shows, flat, by the key its elements name. */
export function countValues(c: CampaignCounts): Record<string, number> {
  return {
    total: c.total,
    queued: c.queued,
    sent: c.sent,
    delivered: c.delivered,
    read: c.read,
    replied: c.replied,
    failed: c.failed,
    skipped: c.skipped.total,
    opted_out: c.skipped.opted_out,
    invalid_number: c.skipped.invalid_number,
    duplicate: c.skipped.duplicate,
    missing_value: c.skipped.missing_value,
    handled: c.total - c.queued,
  };
}

export function percentDone(c: CampaignCounts): number {
  return c.total === 0 ? 0 : Math.floor((100 * (c.total - c.queued)) / c.total);
}

/**
 * Whether the page should keep polling: while the campaign is under way, and after it completed while
 * the network's outcome of its last messages is still awaited (they count as queued).
 */
export function isLive(campaign: Campaign, counts: CampaignCounts): boolean {
  return (
    campaign.status === 'RUNNING' ||
    campaign.status === 'SCHEDULED' ||
    (campaign.status === 'COMPLETED' && counts.queued > 0)
  );
}

export function chartWords(c: CampaignCounts): string {
  const v = countValues(c);
  return `${BARS.map(([key, label]) => `${label} ${v[key]}`).join(', ')}, of ${c.total} recipients.`;
}

/** What the page script reads every two seconds. */
export function progressJson(campaign: Campaign, counts: CampaignCounts) {
  return {
    status: campaign.status,
    statusReason: campaign.statusReason,
    live: isLive(campaign, counts),
    percent: percentDone(counts),
    counts: countValues(counts),
    words: chartWords(counts),
  };
}

const barWidth = (count: number, total: number) =>
  total === 0 ? 0 : Math.round((CHART_WIDTH * count) / total);

function chartRow(key: BarKey, label: string, count: number, total: number, i: number): SafeHtml {
  const y = i * ROW;
  return html`<text x="0" y="${y + 16}" class="chart-label">${label}</text>
<text x="${CHART_WIDTH}" y="${y + 16}" text-anchor="end" class="chart-number" data-count="${key}">${count}</text>
<rect x="0" y="${y + 24}" width="${CHART_WIDTH}" height="12" class="chart-track"></rect>
<rect x="0" y="${y + 24}" width="${barWidth(count, total)}" height="12" class="chart-bar chart-bar-${key}" data-bar="${key}"></rect>`;
}

/** Recipients by status as horizontal bars, each a share of all recipients. */
export function statusChart(c: CampaignCounts): SafeHtml {
  const v = countValues(c);
  return html`<figure class="chart">
<svg viewBox="0 0 ${CHART_WIDTH} ${BARS.length * ROW}" role="img" aria-labelledby="chart-title chart-desc" data-chart-width="${CHART_WIDTH}">
<title id="chart-title">Recipients by status</title>
<desc id="chart-desc" data-chart-words>${chartWords(c)}</desc>
${BARS.map(([key, label], i) => chartRow(key, label, v[key] ?? 0, c.total, i))}
</svg>
<figcaption>Each bar is a share of all <span data-count="total">${c.total}</span> recipients. Sent, delivered and read add up as the network reports them: a read message was also delivered and sent.</figcaption>
</figure>`;
}

/** The progress bar: how many recipients have an outcome (sent, failed or left out). */
export function progressBar(c: CampaignCounts): SafeHtml {
  const done = c.total - c.queued;
  return html`<div class="field"><label for="campaign-progress">Progress</label>
<progress id="campaign-progress" max="${Math.max(1, c.total)}" value="${done}" data-progress-bar>${percentDone(c)}%</progress>
<p class="hint"><span data-count="handled">${done}</span> of <span data-count="total">${c.total}</span> recipients handled (<span data-percent>${percentDone(c)}</span>%).</p></div>`;
}

/** Why recipients were left out, when any were. */
export function skippedWords(c: CampaignCounts): SafeHtml | string {
  if (c.skipped.total === 0) return '';
  return html`<p>Left out: ${SKIP_WORDS.filter(([key]) => c.skipped[key] > 0).map(([key, words], i) => html`${i ? ', ' : ''}<span data-count="${key}">${c.skipped[key]}</span> ${words}`)}.</p>`;
}

/** One line for the list of campaigns. */
export function countsLine(campaign: Campaign, c: CampaignCounts): string {
  if (campaign.total === null && c.total === 0) return 'Audience not read yet';
  return `${c.sent} of ${c.total} sent · ${c.delivered} delivered · ${c.read} read · ${c.failed} failed · ${c.skipped.total} left out`;
}
