/**
 * Messages sent and received per day, as the dashboard draws them (src/portal/pages/dashboard.ts): two
 * bars a day in SVG, the received ones hatched as well as coloured so that the two tell apart without
 * colour, a legend, and every day's figures in a table under the chart.
 */
import type { DayFigures } from '../../domain/dashboard.ts';
import { html, type SafeHtml } from '../html.ts';

const WIDTH = 720;
const HEIGHT = 220;
const PLOT = { left: 40, right: 712, top: 12, bottom: 190 };

function bars(days: DayFigures[], top: number): SafeHtml[] {
  const slot = (PLOT.right - PLOT.left) / days.length;
  const bar = Math.max(1, Math.floor(slot * 0.4));
  const y = (n: number) => PLOT.bottom - Math.round((n / top) * (PLOT.bottom - PLOT.top));
  return days.map((d, i) => {
    const x = Math.round(PLOT.left + i * slot + slot * 0.1);
    return html`<rect x="${x}" y="${y(d.sent)}" width="${bar}" height="${PLOT.bottom - y(d.sent)}" class="day-sent"><title>${d.day}: ${d.sent} sent</title></rect>
<rect x="${x + bar}" y="${y(d.received)}" width="${bar}" height="${PLOT.bottom - y(d.received)}" class="day-received" fill="url(#received-hatch)"><title>${d.day}: ${d.received} received</title></rect>`;
  });
}

function table(days: DayFigures[]): SafeHtml {
  return html`<details><summary>The figures of each day</summary><div class="table-wrap"><table>
<thead><tr><th scope="col">Day (UTC)</th><th scope="col">Sent</th><th scope="col">Delivered</th><th scope="col">Read</th><th scope="col">Failed</th><th scope="col">Received</th></tr></thead>
<tbody>${days.map((d) => html`<tr><td>${d.day}</td><td>${d.sent}</td><td>${d.delivered}</td><td>${d.read}</td><td>${d.failed}</td><td>${d.received}</td></tr>`)}</tbody>
</table></div></details>`;
}

export function dayChart(days: DayFigures[]): SafeHtml {
  const top = Math.max(1, ...days.map((d) => Math.max(d.sent, d.received)));
  const sent = days.reduce((n, d) => n + d.sent, 0);
  const received = days.reduce((n, d) => n + d.received, 0);
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  return html`<figure class="chart day-chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="days-title days-desc">
<title id="days-title">Messages sent and received per day</title>
<desc id="days-desc">From ${first} to ${last}: ${sent} sent and ${received} received; the busiest day had ${top}.</desc>
<defs><pattern id="received-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-ground"></rect><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"></line></pattern></defs>
<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" class="timeline-axis"></line>
<text x="${PLOT.left - 6}" y="${PLOT.top + 5}" text-anchor="end">${top}</text>
<text x="${PLOT.left - 6}" y="${PLOT.bottom}" text-anchor="end">0</text>
<text x="${PLOT.left}" y="${HEIGHT - 8}">${first}</text>
<text x="${PLOT.right}" y="${HEIGHT - 8}" text-anchor="end">${last}</text>
${bars(days, top)}
</svg>
<ul class="timeline-legend"><li><svg viewBox="0 0 14 14" width="14" height="14" aria-hidden="true"><rect width="14" height="14" class="day-sent"></rect></svg> Sent <strong>${sent}</strong></li><li><svg viewBox="0 0 14 14" width="14" height="14" aria-hidden="true"><defs><pattern id="legend-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="hatch-ground"></rect><line x1="0" y1="0" x2="0" y2="6" class="hatch-line"></line></pattern></defs><rect width="14" height="14" fill="url(#legend-hatch)"></rect></svg> Received <strong>${received}</strong></li></ul>
<figcaption>Messages sent (the network took them) and received, per UTC day.</figcaption>
${table(days)}
</figure>`;
}
