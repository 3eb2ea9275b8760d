/**
 * The virtual phone page's script (an ES module served as is, no build step). It shows one chat between
 * the user's number and a business number as WhatsApp would, follows the phone's live stream
 * (`/users/:phone/events`, Server-Sent Events) and sends what the user types, taps and shares through
 * `POST /users/:phone/messages`. Everything it draws from a message goes through textContent or
 * escaped attributes; only flow screens are HTML, rendered and escaped by the server.
 * A reaction is drawn on the message it names, not as a bubble of its own (reactions.js).
 * Its modules (message-view.js, template-view.js, reactions.js, rich-text.js, flow-sheet.js,
 * promotions-toggle.js, dom.js) are served beside it (routes.ts);
 * all are type-checked by `npm run typecheck` (tsconfig.json beside them, shapes in types.js).
 */
// @ts-check

/** @import { ChatMessage, SendError, Place } from './types.js' */

import { $, byId, dialog, el, errorMessage } from './dom.js';
import { installFlowSheet, openFlow } from './flow-sheet.js';
import { messageElement, useHooks } from './message-view.js';
import { installPromotionsToggle } from './promotions-toggle.js';
import { forgetReactions, noteReaction, reactionsOn, targetOf } from './reactions.js';

const body = document.body;
const base = body.dataset.base ?? '/simulator';
const STORE_USER = 'switchboard.phone.user';
const STORE_BUSINESS = 'switchboard.phone.business';

const list = byId('messages', HTMLOListElement);
const setupForm = byId('setup', HTMLFormElement);
const userInput = byId('user-number', HTMLInputElement);
const businessInput = byId('business-number', HTMLInputElement);
const composer = byId('composer', HTMLFormElement);
const composerText = byId('composer-text', HTMLTextAreaElement);

/**
 * Current chat: E.164 digits of both ends, the messages by id, the live stream.
 * @type {{ user: string, business: string, messages: Map<string, ChatMessage>, source: EventSource | null }}
 */
const state = { user: '', business: '', messages: new Map(), source: null };

/** @param {unknown} value */
const digits = (value) => String(value ?? '').replace(/[^\d]/g, '');
/** @param {string} path */
const phoneUrl = (path) => `${base}/users/${state.user}${path}`;
/** @type {Record<string, number>} */
const RANK = { sent: 1, delivered: 2, read: 3, failed: 4 };

/**
 * The JSON answer of one of this phone's routes; its shape is the route's (routes.ts, views.ts), which the
 * caller names.
 * @template T
 * @param {string} path
 * @param {{ method?: string, body?: string }} [options]
 * @returns {Promise<T>}
 */
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

/**
 * Draws message `id` again where it is (a new status, a reaction on it); false when it is not on the page.
 * The control that had the focus (its `data-focus-key`) has it again in the new drawing.
 * @param {string} id
 */
function redraw(id) {
  const message = state.messages.get(id);
  const old = document.getElementById(`m-${id}`);
  if (!message || !old) return false;
  const focused = document.activeElement;
  const key = focused instanceof HTMLElement && old.contains(focused) ? focused.dataset.focusKey : undefined;
  const fresh = messageElement(message);
  old.replaceWith(fresh);
  if (key) {
    for (const node of fresh.querySelectorAll('[data-focus-key]')) {
      if (node instanceof HTMLElement && node.dataset.focusKey === key) node.focus();
    }
  }
  return true;
}

/**
 * @param {string} id
 * @param {string} status
 * @param {SendError | undefined} error
 */
function updateStatus(id, status, error) {
  const message = state.messages.get(id);
  if (!message || (RANK[status] ?? 0) <= (RANK[message.status] ?? 0)) return;
  message.status = status;
  if (error) message.error = error;
  redraw(id);
}

/**
 * @param {ChatMessage} message
 * @param {boolean} [scroll]
 */
function upsert(message, scroll = true) {
  const known = state.messages.get(message.id);
  if (known) {
    updateStatus(message.id, message.status, message.error);
    return;
  }
  state.messages.set(message.id, message);
  const target = targetOf(message);
  if (target) {
    noteReaction(message);
    // A badge on the message it names, as WhatsApp draws it; a bubble of its own only when that message
    // is not on the page (older than the chat the phone keeps).
    if (redraw(target)) return;
  } else {
    // Reactions drawn on their own before their message came give way to the badge on it.
    for (const reaction of reactionsOn(message.id)) document.getElementById(`m-${reaction.id}`)?.remove();
  }
  list.append(messageElement(message));
  if (scroll) list.scrollTop = list.scrollHeight;
}

// ---- Loading, live updates ----

/** @param {string} text */
function say(text) {
  $('connection').textContent = text;
}

async function loadChats() {
  try {
    /** @type {{ chats: { business: string, last: string }[] }} */
    const { chats } = await api('/chats');
    const options = $('business-numbers');
    options.replaceChildren(
      ...chats.map((c) =>
        el('option', { value: `+${c.business}` }, (c.last.split('\n')[0] ?? '').slice(0, 40)),
      ),
    );
  } catch {
    // The list only helps choosing; the chat works without it.
  }
}

async function loadChat() {
  /** @type {{ messages: ChatMessage[] }} */
  const { messages } = await api(`/chat?with=${state.business}`);
  const known = new Map(state.messages);
  state.messages.clear();
  forgetReactions();
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

/** @type {ReturnType<typeof setTimeout> | undefined} */
let typingTimer;

/** The business is writing: its status line says so for `seconds`, or until its message arrives. */
/** @param {number} seconds */
function startTyping(seconds) {
  clearTimeout(typingTimer);
  say('typing…');
  typingTimer = setTimeout(stopTyping, seconds * 1000);
}

function stopTyping() {
  if (typingTimer === undefined) return;
  clearTimeout(typingTimer);
  typingTimer = undefined;
  say('online');
}

function follow() {
  state.source?.close();
  const source = new EventSource(phoneUrl('/events'));
  state.source = source;
  source.addEventListener('open', () => {
    say('online');
    // Whatever happened while the stream was down is in the chat.
    loadChat().catch((e) => say(`could not load the chat: ${errorMessage(e)}`));
  });
  source.addEventListener('error', () => say('reconnecting…'));
  source.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    if (message.business === state.business) {
      // The business's message ends its "typing…".
      if (message.direction === 'in') stopTyping();
      upsert(message);
    } else loadChats();
  });
  source.addEventListener('typing', (event) => {
    const { business, seconds } = JSON.parse(event.data);
    if (business === state.business) startTyping(seconds);
  });
  source.addEventListener('status', (event) => {
    const { id, status, error } = JSON.parse(event.data);
    updateStatus(id, status, error);
  });
}

const BAD_USER = 'Your number must be a phone number with its country code, e.g. +254712345678.';
const BAD_BUSINESS = 'The business number must be a phone number with its country code, e.g. +14155550100.';

/**
 * What the simulator says of the two numbers: the length of a number is checked here, but only the
 * simulator knows which numbers exist (a number in a range no country gives out is refused there).
 * @param {string} user
 * @param {string} business
 */
async function numbersProblem(user, business) {
  try {
    const response = await fetch(`${base}/users/${user}/chat?with=${business}`);
    if (response.status !== 400) return '';
    const { error } = await response.json();
    return String(error?.message ?? '').includes('`with`') ? BAD_BUSINESS : BAD_USER;
  } catch {
    // Unreachable now: the chat opens and says so itself (reconnecting…).
    return '';
  }
}

/**
 * @param {string | undefined} userValue
 * @param {string | undefined} businessValue
 */
async function openChat(userValue, businessValue) {
  const user = digits(userValue);
  const business = digits(businessValue);
  const problem =
    user.length < 7 || user.length > 15
      ? BAD_USER
      : business.length < 7 || business.length > 15
        ? BAD_BUSINESS
        : user === business
          ? 'Your number and the business number must differ.'
          : await numbersProblem(user, business);
  $('setup-error').textContent = problem;
  if (problem) return false;
  state.user = user;
  state.business = business;
  state.messages.clear();
  forgetReactions();
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
  promotions.load();
  return true;
}

// ---- Sending ----

/** @param {Record<string, unknown>} body */
async function send(body) {
  $('composer-error').textContent = '';
  try {
    await api('/messages', { method: 'POST', body: JSON.stringify({ to: state.business, ...body }) });
    // Without a live stream the page would not see its own message: read the chat again.
    if (state.source?.readyState !== EventSource.OPEN) await loadChat();
    return true;
  } catch (e) {
    $('composer-error').textContent = `Not sent: ${errorMessage(e)}`;
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

setupForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (await openChat(userInput.value, businessInput.value)) composerText.focus();
});

// ---- Dialogs: list menu, location, flow ----

for (const close of document.querySelectorAll('dialog [data-close]')) {
  close.addEventListener('click', () => close.closest('dialog')?.close());
}

/** @param {ChatMessage} message */
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
  dialog('list-dialog').showModal();
}

const listForm = byId('list-form', HTMLFormElement);
listForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const picked = listForm.querySelector('input[name=row]:checked');
  if (!(picked instanceof HTMLInputElement)) {
    $('list-sections').querySelector('input')?.focus();
    return;
  }
  dialog('list-dialog').close();
  await send({ reply: { id: picked.value } });
});

function openLocation() {
  dialog('location-dialog').showModal();
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let noticeTimer;

/** A short notice over the chat (what a button did), gone after a few seconds. */
/** @param {string} text */
function notify(text) {
  const notice = $('notice');
  notice.textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    notice.textContent = '';
  }, 4000);
}
$('share-location').addEventListener('click', openLocation);

const locationForm = byId('location-form', HTMLFormElement);
locationForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!locationForm.reportValidity()) return;
  const field = (/** @type {string} */ name) => byId(`location-${name}`, HTMLInputElement).value;
  /** @type {Place} */
  const location = { latitude: Number(field('latitude')), longitude: Number(field('longitude')) };
  if (field('name').trim()) location.name = field('name').trim();
  if (field('address').trim()) location.address = field('address').trim();
  dialog('location-dialog').close();
  await send({ location });
});

useHooks({ phoneUrl, shown: (id) => state.messages.get(id), send, openList, openFlow, openLocation, notify });
installFlowSheet({ load: api, send });
const promotions = installPromotionsToggle({ api, business: () => state.business, notify });

// ---- Start: the query, else what this browser used last, else the page's defaults ----

const query = new URLSearchParams(location.search);
void openChat(
  query.get('user') ?? localStorage.getItem(STORE_USER) ?? body.dataset.defaultUser,
  query.get('with') ?? localStorage.getItem(STORE_BUSINESS) ?? body.dataset.defaultBusiness,
);
