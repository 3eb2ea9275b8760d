/**
 * One chat message as the phone page draws it, both directions: texts, media, locations, contacts,
 * interactive messages and templates (template-view.js), the quoted message, the delivery status, and the
 * reactions on it with, on a business message, the user's React button (reactions.js). Everything drawn
 * from a message goes through textContent or escaped attributes.
 */
// @ts-check

/** @import { ChatHooks, ChatMessage, ContactCard, FilledHeader, Header, Media, MediaParts, Place } from './types.js' */

import { actionButton, el, icon } from './dom.js';
import { canReact, reactionBadge, reactionPicker } from './reactions.js';
import { linkPreview, richText, styled } from './rich-text.js';
import { templateBlock } from './template-view.js';

/** @type {ChatHooks} */
let hooks;

/** @param {ChatHooks} given what the page does for the views (app.js gives it once, at start) */
export function useHooks(given) {
  hooks = given;
}

// ---- Media, locations, contacts ----

/** @param {Media | undefined} media */
function mediaSource(media) {
  if (media?.link) return media.link;
  if (media?.id) return hooks.phoneUrl(`/media/${encodeURIComponent(media.id)}`);
  return '';
}

/**
 * @param {MediaParts} parts
 * @param {string | undefined} type
 */
function mediaOf(parts, type) {
  if (type === 'image' || type === 'video' || type === 'audio' || type === 'document' || type === 'sticker')
    return parts[type];
  return undefined;
}

/**
 * @param {string | undefined} type
 * @param {Media | undefined} media
 */
function mediaBlock(type, media) {
  const src = mediaSource(media);
  const caption = media?.caption ? richText(media.caption) : null;
  let node;
  if (type === 'image' || type === 'sticker') {
    node = el('img', {
      className: type === 'sticker' ? 'sticker' : 'image',
      src,
      alt: media?.caption ? `Image: ${media.caption}` : type === 'sticker' ? 'Sticker' : 'Image',
      loading: 'lazy',
    });
  } else if (type === 'video') {
    node = el('video', {
      className: 'video',
      src,
      controls: true,
      preload: 'metadata',
      'aria-label': 'Video',
    });
  } else if (type === 'audio') {
    const label = media?.voice ? 'Voice message' : 'Audio';
    node = el(
      'div',
      { className: 'audio' },
      el('span', {}, icon('mic'), label),
      el('audio', { src, controls: true, 'aria-label': label }),
    );
  } else {
    const name = media?.filename ?? 'Document';
    node = el(
      'a',
      { className: 'document', href: src, download: name, target: '_blank', rel: 'noopener' },
      icon('document'),
      name,
    );
  }
  return el('div', { className: 'media' }, node, caption);
}

/**
 * @param {number | undefined} latitude
 * @param {number | undefined} longitude
 */
function mapLink(latitude, longitude) {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}

/** @param {Place | undefined} location */
function locationBlock(location) {
  const { latitude, longitude, name, address } = location ?? {};
  return el(
    'div',
    { className: 'location' },
    el('p', { className: 'location-name' }, icon('pin'), name ?? 'Location'),
    address ? el('p', { className: 'location-address', text: address }) : null,
    el('p', { className: 'coordinates', text: `${latitude}, ${longitude}` }),
    el(
      'a',
      { href: mapLink(latitude, longitude), target: '_blank', rel: 'noopener noreferrer' },
      'Open in map',
    ),
  );
}

/** @param {ContactCard[] | undefined} cards */
function contactsBlock(cards) {
  return el(
    'ul',
    { className: 'contacts' },
    (cards ?? []).map((card) =>
      el(
        'li',
        { className: 'contact' },
        el('p', { className: 'contact-name' }, icon('person'), card.name?.formatted_name ?? 'Contact'),
        (card.phones ?? []).map((p) =>
          el('p', {}, el('a', { href: `tel:${p.phone}` }, p.phone), p.type ? ` (${p.type})` : ''),
        ),
        (card.emails ?? []).map((e) => el('p', {}, el('a', { href: `mailto:${e.email}` }, e.email))),
      ),
    ),
  );
}

// ---- Interactive messages and templates ----

/** @param {Header | undefined} header */
function headerBlock(header) {
  if (!header) return null;
  if (header.type === 'text')
    return el('p', { className: 'header-text' }, el('strong', { text: header.text }));
  return mediaBlock(header.type, mediaOf(header, header.type));
}

/**
 * A template's header, as the network filled it in (templates/filled-template.ts).
 * @param {FilledHeader} header
 */
function filledHeaderBlock(header) {
  if (header.type === 'text')
    return el('p', { className: 'header-text' }, el('strong', { text: header.text }));
  if (header.type === 'location') return locationBlock(header);
  return mediaBlock(header.type, header);
}

/** @param {ChatMessage} message */
function interactiveBlock(message) {
  const i = message.content.interactive ?? {};
  const action = i.action ?? {};
  const parts = [headerBlock(i.header), i.body?.text ? richText(i.body.text) : null];
  if (i.footer?.text) parts.push(el('p', { className: 'footer-text', text: i.footer.text }));
  const actions = el('div', { className: 'actions' });
  if (i.type === 'button') {
    for (const b of action.buttons ?? []) {
      actions.append(
        actionButton(b.reply?.title, () => hooks.send({ reply: { id: b.reply?.id } }), {
          dataset: { replyId: b.reply?.id },
        }),
      );
    }
  } else if (i.type === 'list') {
    actions.append(actionButton([icon('list'), action.button ?? 'Options'], () => hooks.openList(message)));
  } else if (i.type === 'flow') {
    actions.append(actionButton(action.parameters?.flow_cta ?? 'Open', () => hooks.openFlow(message)));
  } else if (i.type === 'location_request_message') {
    actions.append(actionButton([icon('pin'), 'Send location'], () => hooks.openLocation()));
  } else if (i.type === 'cta_url') {
    const p = action.parameters ?? {};
    actions.append(
      el(
        'a',
        { className: 'action', href: p.url, target: '_blank', rel: 'noopener noreferrer' },
        icon('external'),
        p.display_text,
      ),
    );
  }
  if (actions.childElementCount > 0) parts.push(actions);
  return parts;
}

/**
 * The quoted message a reply answers, as WhatsApp shows above the reply: a user's reply names it in
 * `context.id`, a business's in `context.message_id`.
 */
/** @param {ChatMessage} message */
function quoteOf(message) {
  const id = message.content.context?.id ?? message.content.context?.message_id;
  const quoted = id ? hooks.shown(id) : null;
  if (!quoted) return null;
  return el(
    'blockquote',
    { className: 'quote' },
    styled(quoted.rendered.split('\n').find((l) => l.trim()) ?? ''),
  );
}

/** @param {ChatMessage} message */
function userReplyBlock(message) {
  const i = message.content.interactive ?? {};
  if (i.type === 'nfm_reply')
    return [el('p', { className: 'text' }, icon('done'), i.nfm_reply?.body ?? 'Sent')];
  const reply = i.button_reply ?? i.list_reply ?? {};
  return [
    richText(reply.title),
    reply.description ? el('p', { className: 'footer-text', text: reply.description }) : null,
  ];
}

/**
 * @param {ChatMessage} message
 * @returns {(HTMLElement | null)[]}
 */
function contentBlock(message) {
  const c = message.content;
  switch (message.type) {
    case 'text':
      return [richText(c.text?.body), linkPreview(c.text?.body)];
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return [mediaBlock(message.type, mediaOf(c, message.type))];
    case 'location':
      return [locationBlock(c.location)];
    case 'contacts':
      return [contactsBlock(c.contacts)];
    case 'interactive':
      return message.direction === 'out' ? userReplyBlock(message) : interactiveBlock(message);
    case 'template':
      return templateBlock(message, { header: filledHeaderBlock, media: mediaBlock, hooks });
    case 'reaction':
      // Drawn as a bubble only when the message it names is not on the page (app.js); else a badge on it.
      return [el('p', { className: 'text', text: message.rendered })];
    default:
      return [richText(message.rendered)];
  }
}

// ---- Statuses ----

/** @type {Record<string, string>} */
const STATUS_LABEL = { sent: 'Sent', delivered: 'Delivered', read: 'Read', failed: 'Failed' };

/** @param {ChatMessage} message */
function statusBlock(message) {
  if (message.status === 'failed') {
    const e = message.error;
    const why = e ? `${e.title} (${e.code})${e.details ? `: ${e.details}` : ''}` : 'not delivered';
    return el('p', { className: 'failed', role: 'note' }, icon('warning'), `Failed: ${why}`);
  }
  const ticks = message.status === 'sent' ? '✓' : '✓✓';
  return el('span', {
    className: `ticks ${message.status}`,
    role: 'img',
    'aria-label': STATUS_LABEL[message.status] ?? message.status,
    title: STATUS_LABEL[message.status] ?? message.status,
    text: ticks,
  });
}

/** @param {string} iso */
function timeOf(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** @param {ChatMessage} message */
export function messageElement(message) {
  const status = statusBlock(message);
  const badge = reactionBadge(message.id);
  return el(
    'li',
    {
      className: `message ${message.direction}`,
      id: `m-${message.id}`,
      dataset: { id: message.id, status: message.status, type: message.interactive_type ?? message.type },
    },
    el(
      'div',
      { className: badge ? 'bubble reacted' : 'bubble' },
      el('span', { className: 'visually-hidden', text: message.direction === 'in' ? 'Business: ' : 'You: ' }),
      quoteOf(message),
      contentBlock(message),
      el(
        'div',
        { className: 'meta' },
        el('time', { datetime: message.timestamp, text: timeOf(message.timestamp) }),
        status.tagName === 'SPAN' ? status : null,
      ),
      status.tagName === 'P' ? status : null,
      badge,
    ),
    canReact(message) ? reactionPicker(message, hooks) : null,
  );
}
