/**
 * The virtual phone page's script (an ES module served as is, no build step). It shows one chat between
 * the user's number and a business number as WhatsApp would, follows the phone's live stream
 * (`/users/:phone/events`, Server-Sent Events) and sends what the user types, taps and shares through
 * `POST /users/:phone/messages`. Everything it draws from a message goes through textContent or
 * escaped attributes; only flow screens are HTML, rendered and escaped by the server.
 */

const body = document.body;
const base = body.dataset.base ?? '/simulator';
const STORE_USER = 'switchboard.phone.user';
const STORE_BUSINESS = 'switchboard.phone.business';

const $ = (id) => document.getElementById(id);
const list = $('messages');
const setupForm = $('setup');
const userInput = $('user-number');
const businessInput = $('business-number');
const composer = $('composer');
const composerText = $('composer-text');

/** Current chat: E.164 digits of both ends, the messages by id, the live stream. */
const state = { user: '', business: '', messages: new Map(), source: null };

const digits = (value) => String(value ?? '').replace(/[^\d]/g, '');
const phoneUrl = (path) => `${base}/users/${state.user}${path}`;
const RANK = { sent: 1, delivered: 2, read: 3, failed: 4 };

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return node;
}

/** Icons as inline SVG (not emoji: a machine without a colour emoji font would draw empty boxes). */
const ICONS = {
  pin: 'M12 2C8.13 2 5 5.13 5 9c0 5.25 7 13 7 13s7-7.75 7-13c0-3.87-3.13-7-7-7zm0 9.5a2.5 2.5 0 1 1 0-5 2.5 2.5 0 0 1 0 5z',
  document: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6zm-1 7V3.5L18.5 9H13z',
  person: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z',
  list: 'M3 13h2v-2H3v2zm0 4h2v-2H3v2zm0-8h2V7H3v2zm4 4h14v-2H7v2zm0 4h14v-2H7v2zM7 7v2h14V7H7z',
  mic: 'M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11h-2z',
  done: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z',
  warning: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  external:
    'M19 19H5V5h7V3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-7h-2v7zM14 3v2h3.59l-9.83 9.83 1.41 1.41L19 6.41V10h2V3h-7z',
};

function icon(name) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `icon icon-${name}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

async function api(path, options = {}) {
  const response = await fetch(phoneUrl(path), {
    ...options,
    headers: options.body ? { 'content-type': 'application/json' } : {},
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) throw new Error(json?.error?.message ?? `HTTP ${response.status}`);
  return json;
}

// ---- Text: WhatsApp's *bold*, _italic_, ~strike~, ```mono``` and clickable links ----

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'"]/g;
const STYLES = [
  [/```([^`]+)```/, 'code'],
  [/\*([^*\n]+)\*/, 'strong'],
  [/_([^_\n]+)_/, 'em'],
  [/~([^~\n]+)~/, 's'],
];

function styled(text) {
  let best = null;
  for (const [pattern, tag] of STYLES) {
    const match = pattern.exec(text);
    if (match && (best === null || match.index < best.match.index)) best = { match, tag };
  }
  if (!best) return [text];
  const { match, tag } = best;
  return [
    text.slice(0, match.index),
    el(tag, {}, styled(match[1])),
    ...styled(text.slice(match.index + match[0].length)),
  ];
}

function richText(text) {
  const nodes = [];
  let last = 0;
  for (const match of String(text ?? '').matchAll(URL_PATTERN)) {
    nodes.push(...styled(text.slice(last, match.index)));
    nodes.push(el('a', { href: match[0], target: '_blank', rel: 'noopener noreferrer' }, match[0]));
    last = match.index + match[0].length;
  }
  nodes.push(...styled(String(text ?? '').slice(last)));
  return el('p', { className: 'text' }, nodes);
}

/** A simple preview line for the first link of a text: its site and path, like the card WhatsApp draws. */
function linkPreview(text) {
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

// ---- Media, locations, contacts ----

function mediaSource(media) {
  if (media?.link) return media.link;
  if (media?.id) return phoneUrl(`/media/${encodeURIComponent(media.id)}`);
  return '';
}

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

function mapLink(latitude, longitude) {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
}

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

function headerBlock(header) {
  if (!header) return null;
  if (header.type === 'text')
    return el('p', { className: 'header-text' }, el('strong', { text: header.text }));
  return mediaBlock(header.type, header[header.type]);
}

function actionButton(label, onclick, extra = {}) {
  return el('button', { type: 'button', className: 'action', onclick, ...extra }, label);
}

function interactiveBlock(message) {
  const i = message.content.interactive ?? {};
  const action = i.action ?? {};
  const parts = [headerBlock(i.header), i.body?.text ? richText(i.body.text) : null];
  if (i.footer?.text) parts.push(el('p', { className: 'footer-text', text: i.footer.text }));
  const actions = el('div', { className: 'actions' });
  if (i.type === 'button') {
    for (const b of action.buttons ?? []) {
      actions.append(
        actionButton(b.reply?.title, () => send({ reply: { id: b.reply?.id } }), {
          dataset: { replyId: b.reply?.id },
        }),
      );
    }
  } else if (i.type === 'list') {
    actions.append(actionButton([icon('list'), action.button ?? 'Options'], () => openList(message)));
  } else if (i.type === 'flow') {
    actions.append(actionButton(action.parameters?.flow_cta ?? 'Open', () => openFlow(message)));
  } else if (i.type === 'location_request_message') {
    actions.append(actionButton([icon('pin'), 'Send location'], () => openLocation()));
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

/** Templates arrive rendered by the network: header, body, `_footer_`, then the buttons' lines. */
function templateBlock(rendered) {
  const parts = [];
  for (const line of String(rendered ?? '').split('\n')) {
    const media = /^\[(image|video|document): (.+)\]$/.exec(line);
    const quickReplies = /^(\[[^\]]+\]\s*)+$/.test(line)
      ? [...line.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1])
      : null;
    const target = /^\[([^\]]+)\] (\S+)$/.exec(line);
    if (media)
      parts.push(
        mediaBlock(media[1], { link: /^https?:/.test(media[2]) ? media[2] : undefined, filename: media[2] }),
      );
    else if (quickReplies) {
      parts.push(
        el(
          'div',
          { className: 'actions' },
          quickReplies.map((t) => el('span', { className: 'action passive', text: t })),
        ),
      );
    } else if (target) {
      const href = /^https?:\/\//.test(target[2])
        ? target[2]
        : /^\+?\d+$/.test(target[2])
          ? `tel:${target[2]}`
          : null;
      parts.push(
        el(
          'div',
          { className: 'actions' },
          href
            ? el('a', { className: 'action', href, target: '_blank', rel: 'noopener noreferrer' }, target[1])
            : el('span', { className: 'action passive', text: `${target[1]}: ${target[2]}` }),
        ),
      );
    } else parts.push(richText(line));
  }
  return parts;
}

/** The quoted message a reply answers (`context.id`), as WhatsApp shows above the reply. */
function quoteOf(message) {
  const id = message.content.context?.id;
  const quoted = id ? state.messages.get(id) : null;
  if (!quoted) return null;
  return el(
    'blockquote',
    { className: 'quote' },
    styled(quoted.rendered.split('\n').find((l) => l.trim()) ?? ''),
  );
}

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
      return [mediaBlock(message.type, c[message.type])];
    case 'location':
      return [locationBlock(c.location)];
    case 'contacts':
      return [contactsBlock(c.contacts)];
    case 'interactive':
      return message.direction === 'out' ? userReplyBlock(message) : interactiveBlock(message);
    case 'template':
      return templateBlock(message.rendered);
    case 'reaction':
      return [el('p', { className: 'text', text: message.rendered })];
    default:
      return [richText(message.rendered)];
  }
}

// ---- Statuses ----

const STATUS_LABEL = { sent: 'Sent', delivered: 'Delivered', read: 'Read', failed: 'Failed' };

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

function timeOf(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function messageElement(message) {
  const status = statusBlock(message);
  return el(
    'li',
    {
      className: `message ${message.direction}`,
      id: `m-${message.id}`,
      dataset: { id: message.id, status: message.status, type: message.interactive_type ?? message.type },
    },
    el(
      'div',
      { className: 'bubble' },
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
    ),
  );
}

function updateStatus(id, status, error) {
  const message = state.messages.get(id);
  if (!message || (RANK[status] ?? 0) <= (RANK[message.status] ?? 0)) return;
  message.status = status;
  if (error) message.error = error;
  const old = document.getElementById(`m-${id}`);
  if (old) old.replaceWith(messageElement(message));
}

function upsert(message, scroll = true) {
  const known = state.messages.get(message.id);
  if (known) {
    updateStatus(message.id, message.status, message.error);
    return;
  }
  state.messages.set(message.id, message);
  list.append(messageElement(message));
  if (scroll) list.scrollTop = list.scrollHeight;
}

// ---- Loading, live updates ----

function say(text) {
  $('connection').textContent = text;
}

async function loadChats() {
  try {
    const { chats } = await api('/chats');
    const options = $('business-numbers');
    options.replaceChildren(
      ...chats.map((c) => el('option', { value: `+${c.business}` }, c.last.split('\n')[0].slice(0, 40))),
    );
  } catch {
    // The list only helps choosing; the chat works without it.
  }
}

async function loadChat() {
  const { messages } = await api(`/chat?with=${state.business}`);
  const known = new Map(state.messages);
  state.messages.clear();
  list.replaceChildren();
  for (const m of messages) {
    const seen = known.get(m.id);
    // A status the stream already reported is never moved back by an older read.
    if (seen && (RANK[seen.status] ?? 0) > (RANK[m.status] ?? 0))
      Object.assign(m, { status: seen.status, error: seen.error });
    upsert(m, false);
  }
  list.scrollTop = list.scrollHeight;
}

function follow() {
  state.source?.close();
  const source = new EventSource(phoneUrl('/events'));
  state.source = source;
  source.addEventListener('open', () => {
    say('online');
    // Whatever happened while the stream was down is in the chat.
    loadChat().catch((e) => say(`could not load the chat: ${e.message}`));
  });
  source.addEventListener('error', () => say('reconnecting…'));
  source.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.business === state.business) upsert(message);
    else loadChats();
  });
  source.addEventListener('status', (event) => {
    const { id, status, error } = JSON.parse(event.data);
    updateStatus(id, status, error);
  });
}

function openChat(userValue, businessValue) {
  const user = digits(userValue);
  const business = digits(businessValue);
  const problem =
    user.length < 7 || user.length > 15
      ? 'Your number must be a phone number with its country code, e.g. +254712345678.'
      : business.length < 7 || business.length > 15
        ? 'The business number must be a phone number with its country code, e.g. +14155550100.'
        : user === business
          ? 'Your number and the business number must differ.'
          : '';
  $('setup-error').textContent = problem;
  if (problem) return false;
  state.user = user;
  state.business = business;
  state.messages.clear();
  list.replaceChildren();
  userInput.value = `+${user}`;
  businessInput.value = `+${business}`;
  $('chat-title').textContent = `+${business}`;
  localStorage.setItem(STORE_USER, `+${user}`);
  localStorage.setItem(STORE_BUSINESS, `+${business}`);
  const url = new URL(location.href);
  url.searchParams.set('user', `+${user}`);
  url.searchParams.set('with', `+${business}`);
  history.replaceState(null, '', url);
  say('connecting…');
  follow();
  loadChats();
  return true;
}

// ---- Sending ----

async function send(body) {
  $('composer-error').textContent = '';
  try {
    await api('/messages', { method: 'POST', body: JSON.stringify({ to: state.business, ...body }) });
    // Without a live stream the page would not see its own message: read the chat again.
    if (state.source?.readyState !== EventSource.OPEN) await loadChat();
    return true;
  } catch (e) {
    $('composer-error').textContent = `Not sent: ${e.message}`;
    return false;
  }
}

composer.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = composerText.value.trim();
  if (!text) return;
  if (await send({ text })) composerText.value = '';
  composerText.focus();
});
composerText.addEventListener('keydown', (event) => {
  // Enter sends, Shift+Enter starts a new line, as WhatsApp Web does.
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    composer.requestSubmit();
  }
});

setupForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (openChat(userInput.value, businessInput.value)) composerText.focus();
});

// ---- Dialogs: list menu, location, flow ----

for (const close of document.querySelectorAll('dialog [data-close]')) {
  close.addEventListener('click', () => close.closest('dialog').close());
}

function openList(message) {
  const action = message.content.interactive?.action ?? {};
  $('list-title').textContent = action.button ?? 'Options';
  const sections = (action.sections ?? []).map((section, s) =>
    el(
      'fieldset',
      { className: 'list-section' },
      el('legend', { text: section.title ?? 'Options', className: section.title ? '' : 'visually-hidden' }),
      (section.rows ?? []).map((row, r) =>
        el(
          'div',
          { className: 'list-row' },
          el('input', { type: 'radio', name: 'row', id: `row-${s}-${r}`, value: row.id, required: true }),
          el(
            'label',
            { for: `row-${s}-${r}`, className: 'row-label' },
            el('span', { text: row.title }),
            row.description ? el('span', { className: 'description', text: row.description }) : null,
          ),
        ),
      ),
    ),
  );
  $('list-sections').replaceChildren(...sections);
  $('list-dialog').showModal();
}

$('list-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const picked = event.target.querySelector('input[name=row]:checked');
  if (!picked) {
    $('list-sections').querySelector('input')?.focus();
    return;
  }
  $('list-dialog').close();
  await send({ reply: { id: picked.value } });
});

function openLocation() {
  $('location-dialog').showModal();
}
$('share-location').addEventListener('click', openLocation);

$('location-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  if (!form.reportValidity()) return;
  const location = { latitude: Number(form.latitude.value), longitude: Number(form.longitude.value) };
  if (form.name.value.trim()) location.name = form.name.value.trim();
  if (form.address.value.trim()) location.address = form.address.value.trim();
  $('location-dialog').close();
  await send({ location });
});

// The flow screens are the server's HTML (flow preview components); this walks them as the preview does.
const flow = { data: null, screens: new Map(), history: [], current: null, messageId: null };

function screenSection(id) {
  return [...$('flow-screens').children].find((s) => s.dataset.screen === id);
}

function formValues(id) {
  const values = {};
  for (const input of screenSection(id).querySelector('form').elements) {
    if (!input.name) continue;
    if (input.type === 'checkbox' && input.hasAttribute('data-optin')) values[input.name] = input.checked;
    else if (input.type === 'checkbox') {
      values[input.name] ??= [];
      if (input.checked) values[input.name].push(input.value);
    } else if (input.type === 'radio') {
      if (input.checked) values[input.name] = input.value;
      else values[input.name] ??= undefined;
    } else values[input.name] = input.value;
  }
  return values;
}

/** `${form.x}` and `${data.x}` in an action payload, resolved on the current screen. */
function resolve(value, id) {
  if (typeof value === 'string') {
    const form = formValues(id);
    const lookup = (kind, key) => (kind === 'form' ? form[key] : flow.data.get(id)[key]);
    const whole = /^\$\{(form|data)\.([A-Za-z0-9_]+)\}$/.exec(value);
    if (whole) return lookup(whole[1], whole[2]);
    return value.replace(/\$\{(form|data)\.([A-Za-z0-9_]+)\}/g, (_, kind, key) =>
      String(lookup(kind, key) ?? ''),
    );
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, id));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, id)]));
  return value;
}

function refreshBindings(id) {
  const form = formValues(id);
  for (const span of screenSection(id).querySelectorAll('[data-bind]')) {
    const [kind, key] = span.dataset.bind.split('.');
    const value = kind === 'form' ? form[key] : flow.data.get(id)[key];
    span.textContent =
      value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  }
}

function showScreen(id) {
  for (const s of $('flow-screens').children) s.hidden = s.dataset.screen !== id;
  flow.current = id;
  $('flow-title').textContent = flow.screens.get(id).title;
  $('flow-back').disabled = flow.history.length === 0;
  refreshBindings(id);
  $('flow-title').focus();
}

function validScreen(id) {
  const form = screenSection(id).querySelector('form');
  const error = form.querySelector('.error');
  error.textContent = '';
  for (const group of form.querySelectorAll('fieldset[data-group]')) {
    const picked = group.querySelectorAll('input:checked').length;
    const min = Number(group.dataset.min);
    const max = Number(group.dataset.max);
    const problem =
      picked < min ? `Choose at least ${min}.` : max > 0 && picked > max ? `Choose at most ${max}.` : '';
    group.querySelector('input')?.setCustomValidity(problem);
  }
  if (form.checkValidity()) return true;
  form.reportValidity();
  error.textContent = 'Some answers are missing or invalid.';
  return false;
}

async function runFlowAction(action, needsValid) {
  if (!action) return;
  if (needsValid && !validScreen(flow.current)) return;
  const payload = resolve(action.payload ?? {}, flow.current);
  const status = $('flow-status');
  if (action.name === 'navigate') {
    const next = action.next?.name;
    if (!flow.screens.has(next)) {
      status.textContent = `This flow has no screen ${next}.`;
      return;
    }
    flow.history.push(flow.current);
    flow.data.set(next, { ...flow.screens.get(next).examples, ...payload });
    showScreen(next);
  } else if (action.name === 'complete') {
    status.textContent = 'Sending…';
    if (await send({ flowReply: { messageId: flow.messageId, response: payload } })) {
      status.textContent = '';
      $('flow-dialog').close();
    } else status.textContent = $('composer-error').textContent;
  } else if (action.name === 'update_data') {
    Object.assign(flow.data.get(flow.current), payload);
    refreshBindings(flow.current);
  } else if (action.name === 'open_url' && /^https:\/\//.test(action.url ?? '')) {
    window.open(action.url, '_blank', 'noopener');
  } else {
    status.textContent = `The action ${action.name} needs the business's endpoint, which the simulator does not call.`;
  }
}

async function openFlow(message) {
  $('composer-error').textContent = '';
  let spec;
  try {
    spec = await api(`/flows/${encodeURIComponent(message.id)}`);
  } catch (e) {
    $('composer-error').textContent = `The flow cannot be opened: ${e.message}`;
    return;
  }
  flow.messageId = message.id;
  flow.history = [];
  flow.screens = new Map(spec.screens.map((s) => [s.id, s]));
  flow.data = new Map(spec.screens.map((s) => [s.id, { ...s.examples }]));
  const container = $('flow-screens');
  // The HTML is the server's flow preview rendering, in which every value of the Flow JSON is escaped.
  container.innerHTML = spec.screens
    .map(
      (s) =>
        `<section class="screen" hidden><form novalidate>${s.html}<p class="error" role="alert"></p></form></section>`,
    )
    .join('');
  [...container.children].forEach((section, index) => {
    section.dataset.screen = spec.screens[index].id;
    const form = section.querySelector('form');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const button = event.submitter ?? form.querySelector('.footer-button');
      runFlowAction(button?.dataset.action ? JSON.parse(button.dataset.action) : null, true);
    });
    form.addEventListener('input', () => refreshBindings(flow.current));
  });
  for (const button of container.querySelectorAll('button[type=button][data-action]')) {
    button.addEventListener('click', () => runFlowAction(JSON.parse(button.dataset.action), false));
  }
  $('flow-status').textContent = '';
  $('flow-dialog').showModal();
  showScreen(spec.firstScreen);
}

$('flow-back').addEventListener('click', () => {
  if (flow.history.length) showScreen(flow.history.pop());
});

// ---- Start: the query, else what this browser used last, else the page's defaults ----

const query = new URLSearchParams(location.search);
openChat(
  query.get('user') ?? localStorage.getItem(STORE_USER) ?? body.dataset.defaultUser,
  query.get('with') ?? localStorage.getItem(STORE_BUSINESS) ?? body.dataset.defaultBusiness,
);
