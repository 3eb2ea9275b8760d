/**
 * A campaign's statuses over time (src/domain/campaigns/campaign-timeline.ts) as the portal draws it: one
 * line per status in SVG, each with its own dash pattern as well as its colour, a legend that names each
 * pattern with its latest number, and the same numbers as a table for anyone who does not read charts.
 * portal.js fetches the figure again every few seconds while the campaign is under way.
 */
import {
  TIMELINE_SERIES,
  type Timeline,
  type TimelineSeries,
} from '../../domain/campaigns/campaign-timeline.ts';
import { when } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';

const LABELS: Record<TimelineSeries, string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
  failed: 'Failed',
};
/** Dash patterns, so that the lines tell apart in grey too. */
const DASHES: Record<TimelineSeries, string> = {
  sent: '',
  delivered: '8 4',
  read: '2 4',
  failed: '10 4 2 4',
};

/** The SVG's own units: the plot area inside its margins. */
const PLOT = { left: 44, right: 620, top: 12, bottom: 196 };
const WIDTH = 640;
const HEIGHT = 228;

const clock = (at: number) => new Date(at).toISOString().slice(11, 19);

function scale(t: Timeline, top: number) {
  const end = t.at[t.at.length - 1] ?? t.from;
  const span = Math.max(1, end - t.from);
  return {
    x: (at: number) => Math.round(PLOT.left + ((at - t.from) / span) * (PLOT.right - PLOT.left)),
    y: (n: number) => Math.round(PLOT.bottom - (n / top) * (PLOT.bottom - PLOT.top)),
  };
}

function line(t: Timeline, key: TimelineSeries, top: number): SafeHtml {
  const { x, y } = scale(t, top);
  const points = [`${x(t.from)},${y(0)}`, ...t.at.map((at, i) => `${x(at)},${y(t.series[key][i] ?? 0)}`)];
  const dash = DASHES[key] ? html` stroke-dasharray="${DASHES[key]}"` : '';
  return html`<polyline points="${points.join(' ')}" class="timeline-line timeline-${key}"${dash}></polyline>`;
}

function axes(t: Timeline, top: number): SafeHtml {
  const end = t.at[t.at.length - 1] ?? t.from;
  return html`<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" class="timeline-axis"></line>
<line x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${PLOT.bottom}" class="timeline-axis"></line>
<text x="${PLOT.left - 6}" y="${PLOT.top + 5}" text-anchor="end">${top}</text>
<text x="${PLOT.left - 6}" y="${PLOT.bottom}" text-anchor="end">0</text>
<text x="${PLOT.left}" y="${HEIGHT - 8}">${clock(t.from)}</text>
<text x="${PLOT.right}" y="${HEIGHT - 8}" text-anchor="end">${clock(end)} UTC</text>`;
}

const latest = (t: Timeline, key: TimelineSeries) => t.series[key][t.series[key].length - 1] ?? 0;

/** The chart in words, for its description and for a screen reader. */
export function timelineWords(t: Timeline): string {
  const end = t.at[t.at.length - 1] ?? t.from;
  const numbers = TIMELINE_SERIES.map((key) => `${LABELS[key].toLowerCase()} ${latest(t, key)}`).join(', ');
  return `From ${clock(t.from)} to ${clock(end)} UTC: ${numbers}.`;
}

function legend(t: Timeline): SafeHtml {
  return html`<ul class="timeline-legend">${TIMELINE_SERIES.map(
    (key) =>
      html`<li><svg viewBox="0 0 32 8" width="32" height="8" aria-hidden="true"><line x1="0" y1="4" x2="32" y2="4" class="timeline-line timeline-${key}"${DASHES[key] ? html` stroke-dasharray="${DASHES[key]}"` : ''}></line></svg> ${LABELS[key]} <strong>${latest(t, key)}</strong></li>`,
  )}</ul>`;
}

function table(t: Timeline): SafeHtml {
  return html`<details><summary>The numbers over time</summary><table>
<thead><tr><th scope="col">Until (UTC)</th>${TIMELINE_SERIES.map((key) => html`<th scope="col">${LABELS[key]}</th>`)}</tr></thead>
<tbody>${t.at.map((at, i) => html`<tr><td>${clock(at)}</td>${TIMELINE_SERIES.map((key) => html`<td>${t.series[key][i] ?? 0}</td>`)}</tr>`)}</tbody>
</table></details>`;
}

/**
 * The figure, or a line saying there is nothing to draw yet. `recipients` is the top of the scale: all a
 * campaign could send.
 */
export function timelineFigure(
  t: Timeline | undefined,
  recipients: number,
  startedAt: number | null,
): SafeHtml {
  if (!t) return html`<p class="hint">The chart of statuses over time starts when the campaign does.</p>`;
  const top = Math.max(1, recipients, ...TIMELINE_SERIES.map((key) => latest(t, key)));
  return html`<figure class="chart timeline">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="timeline-title timeline-desc">
<title id="timeline-title">Messages by status over time</title>
<desc id="timeline-desc">${timelineWords(t)}</desc>
${axes(t, top)}
${TIMELINE_SERIES.map((key) => line(t, key, top))}
</svg>
${legend(t)}
<figcaption>How many messages had been sent, delivered and read, and had failed, at each moment since the campaign started${startedAt ? html` (${when(startedAt)})` : ''}; each step is ${t.bucketMs / 1000} s.</figcaption>
${table(t)}
</figure>`;
}
