/**
 * A conversation's thread as the inbox shows it (docs/inbox.md): one bubble per message, the customer's
 * on one side and the business's on the other (a reply from the inbox named by the member who sent it),
 * each with its time; a reply quotes what it answers; a sent message shows its status as ticks, with the status in words for screen readers and a failure's reason
 * in words for everyone.
 */
import type { ThreadEntry } from '../../domain/inbox/inbox-service.ts';
import { messageSummary } from '../../domain/message-summary.ts';
import { withOwnTemplateNames } from '../../domain/templates/sandbox-names.ts';
import { when } from '../components.ts';
import { failureInWords } from '../failure-words.ts';
import { html, type SafeHtml } from '../html.ts';
import { messageContent } from './message-content.ts';

const TICKS: Record<string, [string, string]> = {
  PENDING: ['🕓', 'Sending'],
  SENT: ['✓', 'Sent'],
  DELIVERED: ['✓✓', 'Delivered'],
  READ: ['✓✓', 'Read'],
  FAILED: ['!', 'Failed'],
};

function ticks(status: string): SafeHtml {
  const [mark, words] = TICKS[status] ?? ['', status];
  return html`<span class="ticks ticks-${status.toLowerCase()}" title="${words}"><span aria-hidden="true">${mark}</span> <span class="tick-words">${words}</span></span>`;
}

/** The network id a message answers or reacts to, if any. */
function quotedId(entry: ThreadEntry): string | undefined {
  const json = entry.direction === 'in' ? entry.message.payload : entry.message.content;
  try {
    const message = JSON.parse(json) as {
      context?: { id?: unknown; message_id?: unknown };
      reaction?: { message_id?: unknown };
    };
    const id = message.context?.id ?? message.context?.message_id ?? message.reaction?.message_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

const waIdOf = (entry: ThreadEntry) => entry.message.waId;
const summaryOf = (entry: ThreadEntry) =>
  entry.direction === 'in'
    ? messageSummary(entry.message.type, entry.message.payload)
    : messageSummary(entry.message.kind, entry.message.content);

function quote(entry: ThreadEntry, byWaId: Map<string, ThreadEntry>, accountId: string): SafeHtml | string {
  const id = quotedId(entry);
  if (!id) return '';
  const quoted = byWaId.get(id);
  const who = quoted ? (quoted.direction === 'in' ? 'the customer' : 'you') : '';
  return html`<blockquote class="quoted">${
    quoted
      ? html`<span class="visually-hidden">Replying to ${who}: </span>${withOwnTemplateNames(summaryOf(quoted), accountId)}`
      : 'A message not shown here'
  }</blockquote>`;
}

export interface ThreadViewOptions {
  accountId: string;
  /** Links to the gateway's copies of received files, by received message id. */
  copies: Map<string, string>;
  /** Who the customer is, in words. */
  customer: string;
}

function bubble(entry: ThreadEntry, byWaId: Map<string, ThreadEntry>, o: ThreadViewOptions): SafeHtml {
  const ownName = (name: string) => withOwnTemplateNames(name, o.accountId);
  if (entry.direction === 'in') {
    const m = entry.message;
    return html`<li class="bubble in"><p class="who">${o.customer}</p>${quote(entry, byWaId, o.accountId)}
${messageContent(m.type, m.payload, { copy: o.copies.get(m.id), ownName })}
<p class="meta">${when(m.receivedAt)}</p></li>`;
  }
  const m = entry.message;
  // A reply from the inbox names its member; a send through the API is the business's own.
  return html`<li class="bubble out"><p class="who">${entry.author ?? 'You'}</p>${quote(entry, byWaId, o.accountId)}
${messageContent(m.kind, m.content, { ownName })}
${m.status === 'FAILED' && m.error ? html`<p class="field-error">${withOwnTemplateNames(failureInWords(m.error), o.accountId)}</p>` : ''}
<p class="meta">${when(m.createdAt)} ${ticks(m.status)}</p></li>`;
}

/** The messages, oldest first, in a list a screen reader can walk. */
export function threadView(entries: readonly ThreadEntry[], options: ThreadViewOptions): SafeHtml {
  const byWaId = new Map<string, ThreadEntry>();
  for (const entry of entries) {
    const id = waIdOf(entry);
    if (id) byWaId.set(id, entry);
  }
  if (!entries.length) return html`<p>No messages in this conversation yet.</p>`;
  return html`<ol class="thread" aria-label="Messages, oldest first">${entries.map((e) => bubble(e, byWaId, options))}</ol>`;
}
