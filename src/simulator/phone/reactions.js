/**
 * Reactions as WhatsApp draws them: not a bubble of their own but a small emoji badge on the message they
 * name (`reaction.message_id`), one per side, each side's latest reaction replacing the one before and an
 * empty emoji taking it off. The page (app.js) notes every reaction it is given here and draws one as a
 * bubble of its own (message-view.js) only when the message it names is not on the page.
 *
 * Each business message offers a React button that opens a row of common emojis; a choice sends
 * `{reaction: {messageId, emoji}}` through the phone's message route (routes-users.ts, user-reaction.ts),
 * and choosing the user's current emoji again, or "Remove reaction", sends the empty emoji. Everything drawn
 * goes through textContent or escaped attributes.
 */
// @ts-check

/** @import { ChatHooks, ChatMessage } from './types.js' */

import { el, icon } from './dom.js';

/** The emojis the React row offers, WhatsApp's own quick row. */
const REACTION_CHOICES = ['👍', '❤️', '😂', '😮', '😢', '🙏'];

/** @type {Record<ChatMessage['direction'], string>} */
const WHO = { in: 'Business', out: 'You' };

/**
 * Every reaction the page was given, by the id of the message it names, in the order they came.
 * @type {Map<string, ChatMessage[]>}
 */
const byTarget = new Map();

/**
 * The message whose React row is open, and how to close that row: a status change redraws a message
 * (app.js), and its row stays open through it.
 */
let openOn = '';
let closeOpen = () => {};

/**
 * The id of the message a reaction names; undefined for any other message.
 * @param {ChatMessage} message
 */
export function targetOf(message) {
  return message.type === 'reaction' ? message.content.reaction?.message_id || undefined : undefined;
}

/** The page opened another chat, or reads this one again: every reaction is noted anew. */
export function forgetReactions() {
  byTarget.clear();
}

/** @param {ChatMessage} message a reaction (targetOf names its message) */
export function noteReaction(message) {
  const target = targetOf(message);
  if (!target) return;
  const seen = byTarget.get(target) ?? [];
  if (!seen.some((r) => r.id === message.id)) seen.push(message);
  byTarget.set(target, seen);
}

/**
 * The reactions that name message `id`, in the order they came.
 * @param {string} id
 * @returns {readonly ChatMessage[]}
 */
export function reactionsOn(id) {
  return byTarget.get(id) ?? [];
}

/**
 * What shows on message `id`: each side's latest reaction, unless it took its reaction off.
 * @param {string} id
 */
function currentOn(id) {
  /** @type {Map<ChatMessage['direction'], string>} */
  const latest = new Map();
  for (const r of reactionsOn(id)) latest.set(r.direction, r.content.reaction?.emoji ?? '');
  return [...latest].filter(([, emoji]) => emoji !== '').map(([side, emoji]) => ({ side, emoji }));
}

/**
 * The badge on message `id`, or null when nobody reacted to it.
 * @param {string} id
 */
export function reactionBadge(id) {
  const shown = currentOn(id);
  if (shown.length === 0) return null;
  return el(
    'span',
    { className: 'reactions' },
    shown.map(({ side, emoji }) =>
      el('span', {
        className: `reaction ${side}`,
        role: 'img',
        'aria-label': `${WHO[side]} reacted ${emoji}`,
        title: `${WHO[side]} reacted ${emoji}`,
        text: emoji,
      }),
    ),
  );
}

/**
 * Whether the user may react to `message`: one the business sent that reached the phone (routes-users.ts
 * refuses any other).
 * @param {ChatMessage} message
 */
export function canReact(message) {
  return message.direction === 'in' && message.type !== 'reaction' && message.status !== 'failed';
}

/**
 * The row of emojis for message `id`: the user's current one pressed (choosing it again takes it off, as
 * on WhatsApp), and "Remove reaction" while there is one.
 * @param {string} id
 * @param {(emoji: string) => void} choose
 */
function choicesRow(id, choose) {
  const mine = currentOn(id).find((r) => r.side === 'out')?.emoji ?? '';
  const choices = REACTION_CHOICES.map((emoji, i) =>
    el('button', {
      type: 'button',
      className: 'react-choice',
      'aria-label': `React with ${emoji}`,
      'aria-pressed': String(emoji === mine),
      title: emoji === mine ? 'Take your reaction off' : `React with ${emoji}`,
      dataset: { focusKey: `react-${i}` },
      text: emoji,
      onclick: () => choose(emoji === mine ? '' : emoji),
    }),
  );
  const remove = mine
    ? el('button', {
        type: 'button',
        className: 'react-remove',
        dataset: { focusKey: 'react-remove' },
        text: 'Remove reaction',
        onclick: () => choose(''),
      })
    : null;
  const row = el(
    'div',
    { className: 'react-choices', id: `react-${id}`, role: 'group', 'aria-label': 'Reactions' },
    choices,
    remove,
  );
  return { row, first: choices[0] };
}

/**
 * The React button of a business message and the row of emojis it opens (hidden until then; Escape
 * closes it and gives the focus back to the button).
 * @param {ChatMessage} message
 * @param {ChatHooks} hooks
 * @returns {HTMLElement[]}
 */
export function reactionPicker(message, hooks) {
  const { row, first } = choicesRow(message.id, (emoji) => {
    close(true);
    hooks.send({ reaction: { messageId: message.id, emoji } });
  });
  const isOpen = openOn === message.id;
  row.hidden = !isOpen;
  const toggle = el(
    'button',
    {
      type: 'button',
      className: 'react-toggle',
      'aria-expanded': String(isOpen),
      'aria-controls': row.id,
      title: 'React',
      dataset: { focusKey: 'react' },
    },
    icon('smile'),
    el('span', { className: 'visually-hidden', text: 'React' }),
  );
  /** @param {boolean} refocus */
  function close(refocus) {
    row.hidden = true;
    toggle.setAttribute('aria-expanded', 'false');
    if (openOn === message.id) openOn = '';
    if (refocus) toggle.focus();
  }
  function open() {
    closeOpen();
    row.hidden = false;
    toggle.setAttribute('aria-expanded', 'true');
    openOn = message.id;
    closeOpen = () => close(false);
    first?.focus();
  }
  if (isOpen) closeOpen = () => close(false);
  toggle.addEventListener('click', () => (row.hidden ? open() : close(true)));
  row.addEventListener('keydown', (event) => {
    if (event instanceof KeyboardEvent && event.key === 'Escape') close(true);
  });
  return [toggle, row];
}
