/** The dashboard's template performance (docs/portal.md, "Dashboard"): each template sent in the range. */
import type { Dashboard } from '../../domain/dashboard.ts';
import { withOwnTemplateNames } from '../../domain/templates/sandbox-names.ts';
import { html, type SafeHtml } from '../html.ts';

const rate = (n: number | null) => (n === null ? '' : ` (${n}%)`);

export function templatesCard(d: Dashboard, accountId: string): SafeHtml {
  return html`<section class="card" aria-labelledby="templates-heading"><h2 id="templates-heading">Templates</h2>${
    d.templates.length
      ? html`<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Template messages in this time, most sent first; rates: delivered of sent, read of delivered</caption>
<thead><tr><th scope="col">Template</th><th scope="col">Language</th><th scope="col">Sent</th><th scope="col">Delivered</th><th scope="col">Read</th><th scope="col">Failed</th></tr></thead>
<tbody>${d.templates.map(
          (
            t,
          ) => html`<tr><td data-label="Template"><code>${withOwnTemplateNames(t.name, accountId)}</code></td><td data-label="Language">${t.language}</td>
<td data-label="Sent">${t.sent}</td><td data-label="Delivered">${t.delivered}${rate(t.rates.delivered)}</td><td data-label="Read">${t.read}${rate(t.rates.read)}</td><td data-label="Failed">${t.failed}</td></tr>`,
        )}</tbody></table></div>`
      : html`<p>No template was sent in this time.</p>`
  }</section>`;
}
