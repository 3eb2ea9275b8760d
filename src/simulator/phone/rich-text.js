/** WhatsApp's text formatting for the phone page: *bold*, _italic_, ~strike~, ```mono``` and links. */
// @ts-check

import { el } from './dom.js';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'"]/g;
/** @type {[RegExp, string][]} */
const STYLES = [
  [/```([^`]+)```/, 'code'],
  [/\*([^*\n]+)\*/, 'strong'],
  [/_([^_\n]+)_/, 'em'],
  [/~([^~\n]+)~/, 's'],
];

/**
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function styled(text) {
  /** @type {{ match: RegExpExecArray, tag: string } | null} */
  let best = null;
  for (const [pattern, tag] of STYLES) {
    const match = pattern.exec(text);
    if (match && (best === null || match.index < best.match.index)) best = { match, tag };
  }
  if (!best) return [text];
  const { match, tag } = best;
  return [
    text.slice(0, match.index),
    el(tag, {}, styled(match[1] ?? '')),
    ...styled(text.slice(match.index + match[0].length)),
  ];
}

/** @param {string | undefined} text */
export function richText(text) {
  /** @type {(string | HTMLElement)[]} */
  const nodes = [];
  let last = 0;
  for (const match of String(text ?? '').matchAll(URL_PATTERN)) {
    nodes.push(...styled(String(text).slice(last, match.index)));
    nodes.push(el('a', { href: match[0], target: '_blank', rel: 'noopener noreferrer' }, match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(...styled(String(text ?? '').slice(last)));
  return el('p', { className: 'text' }, nodes);
}

/** A simple preview line for the first link of a text: its site and path, like the card WhatsApp draws. */
/** @param {string | undefined} text */
export function linkPreview(text) {
  const first = String(text ?? '').match(URL_PATTERN)?.[0];
  if (!first) return null;
  let url;
  try {
    url = new URL(first);
  } catch {
    return null;
  }
  return el(
    'a',
    { className: 'link-preview', href: url.href, target: '_blank', rel: 'noopener noreferrer' },
    el('span', { className: 'link-site', text: url.hostname }),
    el('span', { className: 'link-path', text: url.pathname === '/' ? url.href : url.pathname }),
  );
}
