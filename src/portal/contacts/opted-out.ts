/**
 * The contacts page's list of who opted out of the account's marketing (docs/opt-outs.md): the latest
 * first, as GET /api/v1/opt-outs lists them (the same domain service, src/domain/opt-outs.ts), with how
 * each opted out in words. What a user sent is shown as text only.
 */
import { listOptOuts, type OptOutView } from '../../domain/opt-outs.ts';
import type { OptOutsStore } from '../../domain/ports/opt-outs.ts';
import { userLabel } from '../../lib/user-id.ts';
import { when } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';

const SHOWN = 50;

/** How a user opted out, in words (also the inbox's, inbox-conversation.ts). */
export function optOutInWords(o: Pick<OptOutView, 'source' | 'keyword'>): string {
  if (o.source === 'keyword') return `Replied “${o.keyword}”`;
  if (o.source === 'preference') return 'Stopped your marketing in WhatsApp';
  return 'The network refused marketing to them (131050)';
}

const row = (o: OptOutView) =>
  html`<tr><td data-label="User">${userLabel(o.from)}</td><td data-label="Number">+${o.to}</td><td data-label="How">${optOutInWords(o)}</td><td data-label="Since">${when(Date.parse(o.timestamp))}</td></tr>`;

export async function optedOutSection(
  optOuts: Pick<OptOutsStore, 'list'>,
  accountId: string,
): Promise<SafeHtml> {
  const { optOuts: latest, total } = await listOptOuts(optOuts, accountId, { page: 1, perPage: SHOWN });
  const heading = html`<h2 id="opted-out">Opted out of marketing</h2>`;
  if (total === 0)
    return html`<section class="card" aria-labelledby="opted-out">${heading}<p>Nobody has opted out of your numbers' marketing.</p></section>`;
  const more = total > SHOWN ? `; the ${SHOWN} latest are shown, and the API lists them all` : '';
  return html`<section class="card" aria-labelledby="opted-out">${heading}
<p>They are not sent marketing templates from that number until they opt back in (START, or resuming it in WhatsApp). ${total} in all${more}.</p>
<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Users opted out of marketing, latest first</caption><thead><tr><th scope="col">User</th><th scope="col">Number</th><th scope="col">How</th><th scope="col">Since</th></tr></thead>
<tbody>${latest.map(row)}</tbody></table></div></section>`;
}
