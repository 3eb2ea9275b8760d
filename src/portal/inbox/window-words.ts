/** A conversation's 24-hour window in words (docs/inbox.md), for the list and the conversation page. */
import type { ReplyWindow } from '../../domain/inbox/inbox-service.ts';
import { when } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';

/** `5 h 12 min` of a span of milliseconds, rounded down to the minute. */
export function span(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/** Short, for a table cell. */
export function windowLeft(window: ReplyWindow, now: number): string {
  return window.open ? `${span(window.closesAt - now)} left` : 'Closed: templates only';
}

/** In full, with the moments it speaks of. */
export function windowWords(window: ReplyWindow, now: number): SafeHtml {
  return window.open
    ? html`Open for ${span(window.closesAt - now)} more (until ${when(window.closesAt)})`
    : html`Closed${window.lastInboundAt ? html`: the customer last wrote ${when(window.lastInboundAt)}` : ''}`;
}
