/**
 * The flow sheet of the phone page: a received flow's screens, which are the server's HTML (the Flow JSON
 * renderer of src/lib/flow-json/render/, every value escaped), walked as the gateway's flow preview walks
 * them: navigate, data bindings, required fields, and the completion sent as the user's reply.
 */
// @ts-check

/** @import { ChatMessage, FlowAction, FlowScreen } from './types.js' */

import { $, byId, dialog, errorMessage } from './dom.js';

/**
 * @typedef {{
 *   load: <T>(path: string) => Promise<T>,
 *   send: (body: Record<string, unknown>) => Promise<boolean>,
 * }} FlowDeps
 */

/** @type {FlowDeps} */
let deps;

// The flow screens are the server's HTML (flow preview components); this walks them as the preview does.
/**
 * @type {{
 *   data: Map<string, Record<string, unknown>>, screens: Map<string, FlowScreen>, history: string[],
 *   current: string, messageId: string,
 * }}
 */
const flow = { data: new Map(), screens: new Map(), history: [], current: '', messageId: '' };

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
const isRecord = (value) => typeof value === 'object' && value !== null;

/** The drawn screens, in the flow's order. */
function screenSections() {
  return [...$('flow-screens').children].filter((s) => s instanceof HTMLElement);
}

/** @param {string} id */
function screenSection(id) {
  return screenSections().find((s) => s.dataset.screen === id);
}

/** @param {string} id */
function screenForm(id) {
  const form = screenSection(id)?.querySelector('form');
  if (!form) throw new Error(`the flow has no screen ${id} drawn`);
  return form;
}

/** @param {string} id */
function dataOf(id) {
  const data = flow.data.get(id);
  if (!data) throw new Error(`the flow has no data for screen ${id}`);
  return data;
}

/** @param {string} id */
function formValues(id) {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const input of screenForm(id).elements) {
    const named =
      input instanceof HTMLInputElement ||
      input instanceof HTMLSelectElement ||
      input instanceof HTMLTextAreaElement ||
      input instanceof HTMLButtonElement;
    if (!named || !input.name) continue;
    const box = input instanceof HTMLInputElement ? input : null;
    if (box?.type === 'checkbox' && box.hasAttribute('data-optin')) values[input.name] = box.checked;
    else if (box?.type === 'checkbox') {
      /** @type {string[]} */
      const none = [];
      values[input.name] ??= none;
      const picked = values[input.name];
      if (box.checked && Array.isArray(picked)) picked.push(box.value);
    } else if (box?.type === 'radio') {
      if (box.checked) values[input.name] = box.value;
      else values[input.name] ??= undefined;
    } else values[input.name] = input.value;
  }
  return values;
}

/**
 * `${form.x}` and `${data.x}` in an action payload, resolved on the current screen.
 * @param {unknown} value
 * @param {string} id
 * @returns {unknown}
 */
function resolve(value, id) {
  if (typeof value === 'string') {
    const form = formValues(id);
    /**
     * @param {string} kind
     * @param {string} key
     */
    const lookup = (kind, key) => (kind === 'form' ? form[key] : dataOf(id)[key]);
    const whole = /^\$\{(form|data)\.([A-Za-z0-9_]+)\}$/.exec(value);
    if (whole) return lookup(whole[1] ?? '', whole[2] ?? '');
    return value.replace(/\$\{(form|data)\.([A-Za-z0-9_]+)\}/g, (_, kind, key) =>
      String(lookup(kind, key) ?? ''),
    );
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, id));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, id)]));
  return value;
}

/** @param {string} id */
function refreshBindings(id) {
  const form = formValues(id);
  for (const span of screenSection(id)?.querySelectorAll('[data-bind]') ?? []) {
    if (!(span instanceof HTMLElement)) continue;
    const [kind, key] = String(span.dataset.bind).split('.');
    const value = kind === 'form' ? form[key ?? ''] : dataOf(id)[key ?? ''];
    span.textContent =
      value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  }
}

/** @param {string} id */
function showScreen(id) {
  for (const s of screenSections()) s.hidden = s.dataset.screen !== id;
  flow.current = id;
  $('flow-title').textContent = flow.screens.get(id)?.title ?? '';
  byId('flow-back', HTMLButtonElement).disabled = flow.history.length === 0;
  refreshBindings(id);
  $('flow-title').focus();
}

/** @param {string} id */
function validScreen(id) {
  const form = screenForm(id);
  const error = form.querySelector('.error');
  if (error) error.textContent = '';
  for (const group of form.querySelectorAll('fieldset[data-group]')) {
    if (!(group instanceof HTMLElement)) continue;
    const picked = group.querySelectorAll('input:checked').length;
    const min = Number(group.dataset.min);
    const max = Number(group.dataset.max);
    const problem =
      picked < min ? `Choose at least ${min}.` : max > 0 && picked > max ? `Choose at most ${max}.` : '';
    group.querySelector('input')?.setCustomValidity(problem);
  }
  if (form.checkValidity()) return true;
  form.reportValidity();
  if (error) error.textContent = 'Some answers are missing or invalid.';
  return false;
}

/**
 * @param {FlowAction | null} action
 * @param {boolean} needsValid
 */
async function runFlowAction(action, needsValid) {
  if (!action) return;
  if (needsValid && !validScreen(flow.current)) return;
  const payload = resolve(action.payload ?? {}, flow.current);
  const status = $('flow-status');
  if (action.name === 'navigate') {
    const next = action.next?.name;
    if (next === undefined || !flow.screens.has(next)) {
      status.textContent = `This flow has no screen ${next}.`;
      return;
    }
    flow.history.push(flow.current);
    flow.data.set(next, isRecord(payload) ? { ...payload } : {});
    showScreen(next);
  } else if (action.name === 'complete') {
    status.textContent = 'Sending…';
    if (await deps.send({ flowReply: { messageId: flow.messageId, response: payload } })) {
      status.textContent = '';
      dialog('flow-dialog').close();
    } else status.textContent = $('composer-error').textContent;
  } else if (action.name === 'update_data') {
    Object.assign(dataOf(flow.current), payload);
    refreshBindings(flow.current);
  } else if (action.name === 'open_url' && /^https:\/\//.test(action.url ?? '')) {
    window.open(action.url, '_blank', 'noopener');
  } else {
    status.textContent = `The action ${action.name} needs the business's endpoint, which the simulator does not call.`;
  }
}

/** @param {HTMLElement} button */
const actionOf = (button) => (button.dataset.action ? JSON.parse(button.dataset.action) : null);

/** @param {ChatMessage} message */
export async function openFlow(message) {
  $('composer-error').textContent = '';
  /** @type {{ firstScreen: string, screens: FlowScreen[] }} */
  let spec;
  try {
    spec = await deps.load(`/flows/${encodeURIComponent(message.id)}`);
  } catch (e) {
    $('composer-error').textContent = `The flow cannot be opened: ${errorMessage(e)}`;
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
  screenSections().forEach((section, index) => {
    section.dataset.screen = spec.screens[index]?.id;
    const form = section.querySelector('form');
    if (!form) return;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const button = event.submitter ?? form.querySelector('.footer-button');
      runFlowAction(button instanceof HTMLElement ? actionOf(button) : null, true);
    });
    form.addEventListener('input', () => refreshBindings(flow.current));
  });
  for (const button of container.querySelectorAll('button[type=button][data-action]')) {
    if (button instanceof HTMLElement)
      button.addEventListener('click', () => runFlowAction(actionOf(button), false));
  }
  $('flow-status').textContent = '';
  dialog('flow-dialog').showModal();
  showScreen(spec.firstScreen);
}

/**
 * @param {FlowDeps} given how the sheet reads a flow and sends its completion (app.js's api and send)
 */
export function installFlowSheet(given) {
  deps = given;
  byId('flow-back', HTMLButtonElement).addEventListener('click', () => {
    const previous = flow.history.pop();
    if (previous !== undefined) showScreen(previous);
  });
}
