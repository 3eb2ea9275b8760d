/**
 * One shape for every message the phone page shows, both ways: what the phone received from a business
 * (`direction: "in"`) and what the user sent (`"out"`). The chat route and the live stream both use it,
 * so the page draws a message the same way whichever way it arrived.
 */
import type { ReceivedMessage, SentMessage } from '../phone-book.ts';
import type { FilledTemplate } from '../templates/filled-template.ts';

export interface ChatMessage {
  id: string;
  direction: 'in' | 'out';
  /** The business number of the chat (E.164 digits). */
  business: string;
  type: string;
  interactive_type?: string;
  rendered: string;
  /** A template message the phone received: its filled-in parts, for the page to draw. */
  template?: FilledTemplate;
  content: Record<string, unknown>;
  status: string;
  timestamp: string;
  error?: { code: number; title: string; details: string };
}

export function receivedView(m: ReceivedMessage): ChatMessage {
  return {
    id: m.id,
    direction: 'in',
    business: m.from,
    type: m.type,
    ...(m.interactiveType ? { interactive_type: m.interactiveType } : {}),
    rendered: m.rendered,
    ...(m.template ? { template: m.template } : {}),
    content: m.content,
    status: m.status,
    timestamp: m.timestamp,
    ...(m.error ? { error: m.error } : {}),
  };
}

export function sentView(m: SentMessage): ChatMessage {
  const interactive = m.content.interactive as { type?: unknown } | undefined;
  return {
    id: m.id,
    direction: 'out',
    business: m.to,
    type: m.type,
    ...(interactive && typeof interactive.type === 'string' ? { interactive_type: interactive.type } : {}),
    rendered: m.rendered,
    content: m.content,
    status: m.status,
    timestamp: m.timestamp,
  };
}

/** Both directions with one business, oldest first (equal times keep what the phone received first). */
export function chatWith(
  received: readonly ReceivedMessage[],
  sent: readonly SentMessage[],
  business: string,
): ChatMessage[] {
  const all = [
    ...received.filter((m) => m.from === business).map(receivedView),
    ...sent.filter((m) => m.to === business).map(sentView),
  ];
  return all.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}

/** The business numbers this phone talked with, the most recent chat first. */
export function chatsOf(
  received: readonly ReceivedMessage[],
  sent: readonly SentMessage[],
): { business: string; lastMessageAt: string; last: string }[] {
  const latest = new Map<string, { at: string; last: string }>();
  for (const m of [...received.map(receivedView), ...sent.map(sentView)]) {
    const seen = latest.get(m.business);
    if (!seen || m.timestamp >= seen.at) latest.set(m.business, { at: m.timestamp, last: m.rendered });
  }
  return [...latest]
    .map(([business, { at, last }]) => ({ business, lastMessageAt: at, last }))
    .sort((a, b) => (a.lastMessageAt < b.lastMessageAt ? 1 : a.lastMessageAt > b.lastMessageAt ? -1 : 0));
}
