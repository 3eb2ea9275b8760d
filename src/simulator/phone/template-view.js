/**
 * A template message as the phone page draws it, from the template the network filled in (the message's
 * `template`, templates/filled-template.ts): its header, body and footer, and buttons that act as on a
 * phone. A quick reply sends the user's tap back to the business (a `button` message); a URL button opens
 * its link; a number is called; a code button copies its code; a one-tap button hands the code to the
 * business's app, which here is a notice naming the app. A carousel's cards sit in a row the user swipes,
 * or walks with the arrow keys. A message kept from before the network filled templates in is drawn from
 * its rendered text. Everything drawn goes through textContent or escaped attributes.
 */
// @ts-check

/** @import { ChatHooks, ChatMessage, FilledButton, FilledCard, FilledHeader, FilledTemplate, Media } from './types.js' */

import { actionButton, el, icon } from './dom.js';
import { richText } from './rich-text.js';

/**
 * What the template view needs from the message view: how a header and a media file are drawn, and the
 * page's hooks.
 * @typedef {{
 *   header: (header: FilledHeader) => HTMLElement,
 *   media: (type: string | undefined, media: Media | undefined) => HTMLElement,
 *   hooks: ChatHooks,
 * }} TemplateDrawing
 */

/** @param {string | undefined} url only web links become links; anything else is not followed */
const webLink = (url) => (/^https?:\/\//i.test(url ?? '') ? url : undefined);

/**
 * The notice shows at once: a browser that refuses the clipboard (a headless one, an insecure page) still
 * tells the user what the button did.
 * @param {string} code
 * @param {ChatHooks} hooks
 */
function copyCode(code, hooks) {
  hooks.notify('Code copied');
  navigator.clipboard?.writeText(code).catch(() => {
    // Not allowed here: the code is in the message for the user to read.
  });
}

/**
 * @param {ChatMessage} message
 * @param {FilledButton} button
 * @param {number | undefined} card the card's position, for a carousel card's button
 * @param {ChatHooks} hooks
 * @returns {HTMLElement[]}
 */
function buttonElements(message, button, card, hooks) {
  switch (button.type) {
    case 'quick_reply': {
      const tap = { messageId: message.id, index: button.index, ...(card === undefined ? {} : { card }) };
      return [actionButton(button.text, () => hooks.send({ templateButton: tap }))];
    }
    case 'url':
      return [
        el(
          'a',
          { className: 'action', href: webLink(button.url), target: '_blank', rel: 'noopener noreferrer' },
          icon('external'),
          button.text,
        ),
      ];
    case 'phone_number':
      return [
        el('a', { className: 'action', href: `tel:${button.phone_number}` }, icon('phone'), button.text),
      ];
    case 'copy_code':
      return [actionButton([icon('copy'), button.text], () => copyCode(button.code ?? '', hooks))];
    case 'otp': {
      const copy = actionButton([icon('copy'), button.text], () => copyCode(button.code ?? '', hooks));
      if (button.otp_type !== 'ONE_TAP') return [copy];
      const autofill = actionButton(button.autofill_text ?? 'Autofill', () =>
        hooks.notify(`Code handed to the app ${button.package_name}`),
      );
      return [copy, autofill];
    }
    default:
      return [];
  }
}

/**
 * @param {ChatMessage} message
 * @param {FilledButton[]} buttons
 * @param {number | undefined} card
 * @param {ChatHooks} hooks
 */
function buttonsBlock(message, buttons, card, hooks) {
  if (buttons.length === 0) return null;
  return el(
    'div',
    { className: 'actions' },
    buttons.flatMap((b) => buttonElements(message, b, card, hooks)),
  );
}

/**
 * Arrow keys, Home and End move between the cards of the row that has the focus.
 * @param {KeyboardEvent} event
 */
function walkCards(event) {
  const row = event.currentTarget;
  if (!(row instanceof HTMLElement)) return;
  const cards = [...row.querySelectorAll('.card')].filter((c) => c instanceof HTMLElement);
  const current = cards.findIndex((c) => c.contains(document.activeElement));
  const moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: cards.length - 1 };
  const next = moves[/** @type {keyof typeof moves} */ (event.key)];
  const target = next === undefined ? undefined : cards[Math.max(0, Math.min(cards.length - 1, next))];
  if (!(target instanceof HTMLElement)) return;
  event.preventDefault();
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: 'nearest', inline: 'start' });
}

/**
 * @param {ChatMessage} message
 * @param {FilledCard[]} cards
 * @param {TemplateDrawing} drawing
 */
function carouselBlock(message, cards, drawing) {
  return el(
    'div',
    {
      className: 'carousel',
      role: 'region',
      'aria-roledescription': 'carousel',
      'aria-label': `${cards.length} cards`,
      tabindex: '0',
      onkeydown: (event) => walkCards(/** @type {KeyboardEvent} */ (event)),
    },
    cards.map((card, i) =>
      el(
        'section',
        {
          className: 'card',
          role: 'group',
          'aria-roledescription': 'card',
          'aria-label': `card ${i + 1} of ${cards.length}`,
          tabindex: '-1',
          dataset: { card: String(card.index) },
        },
        drawing.header(card.header),
        card.body ? richText(card.body) : null,
        buttonsBlock(message, card.buttons, card.index, drawing.hooks),
      ),
    ),
  );
}

/**
 * @param {ChatMessage} message
 * @param {FilledTemplate} template
 * @param {TemplateDrawing} drawing
 */
function filledBlock(message, template, drawing) {
  return [
    template.header ? drawing.header(template.header) : null,
    richText(template.body),
    template.footer ? el('p', { className: 'footer-text', text: template.footer }) : null,
    buttonsBlock(message, template.buttons ?? [], undefined, drawing.hooks),
    template.cards ? carouselBlock(message, template.cards, drawing) : null,
  ];
}

/**
 * A template message kept before the network filled templates in: its rendered text, line by line
 * (header, body, `_footer_`, then the buttons' lines).
 * @param {string} rendered
 * @param {TemplateDrawing['media']} media
 */
function renderedBlock(rendered, media) {
  return String(rendered ?? '')
    .split('\n')
    .map((line) => {
      const file = /^\[(image|video|document): (.+)\]$/.exec(line);
      if (file) return media(file[1], { link: webLink(file[2]), filename: file[2] });
      if (/^(\[[^\]]+\]\s*)+$/.test(line)) {
        const labels = [...line.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);
        return el(
          'div',
          { className: 'actions' },
          labels.map((t) => el('span', { className: 'action passive', text: t })),
        );
      }
      const target = /^\[([^\]]+)\] (\S+)$/.exec(line);
      if (!target) return richText(line);
      const href = webLink(target[2]) ?? (/^\+?\d+$/.test(target[2] ?? '') ? `tel:${target[2]}` : undefined);
      const action = href
        ? el('a', { className: 'action', href, target: '_blank', rel: 'noopener noreferrer' }, target[1])
        : el('span', { className: 'action passive', text: `${target[1]}: ${target[2]}` });
      return el('div', { className: 'actions' }, action);
    });
}

/**
 * @param {ChatMessage} message
 * @param {TemplateDrawing} drawing
 * @returns {(HTMLElement | null)[]}
 */
export function templateBlock(message, drawing) {
  return message.template
    ? filledBlock(message, message.template, drawing)
    : renderedBlock(message.rendered, drawing.media);
}
