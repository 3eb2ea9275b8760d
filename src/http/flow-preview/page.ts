/**
 * The flow preview page (docs/contract.md §4: "shows the flow's screens as a user would see them"): one phone-
 * sized column with a title bar, the screen's components and its Footer button. A small inline script
 * moves between screens on `navigate`, keeps each screen's data and answers, and shows the completed state
 * with the response the business would receive on `complete`. Nothing leaves the page.
 */
import { escapeHtml } from '../../lib/escape-html.ts';
import { renderChildren } from '../../lib/flow-json/render/components.ts';
import { examplesOf } from '../../lib/flow-json/render/screen-examples.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON inside a <script> element: `<` escaped so no string can close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('<', '\\u003c');
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#e5ddd5;color:#111b21}
.note{max-width:420px;margin:12px auto 0;padding:0 12px;font-size:13px;color:#3b4a54}
.phone{max-width:420px;margin:12px auto;background:#fff;border-radius:16px;overflow:hidden;box-shadow:0 2px 12px #0003;min-height:560px;display:flex;flex-direction:column}
.screen{display:flex;flex-direction:column;flex:1}
.screen[hidden],#completed[hidden]{display:none}
.title-bar{display:flex;align-items:center;gap:8px;padding:12px 16px;border-bottom:1px solid #e9edef}
.title-bar h1{font-size:18px;margin:0;flex:1}
.title-bar button{border:0;background:none;font-size:20px;cursor:pointer;padding:4px 8px;color:#008069}
.title-bar button:disabled{visibility:hidden}
form{display:flex;flex-direction:column;flex:1;padding:16px;gap:14px}
.heading{font-size:20px;margin:0}.subheading{font-size:17px;margin:0}.body-text{margin:0}
.caption,.helper{font-size:13px;color:#667781;margin:4px 0 0}
.field label,legend{display:block;font-weight:600;margin-bottom:4px}
.optional{font-weight:400;color:#667781}
input[type=text],input[type=email],input[type=number],input[type=password],input[type=tel],input[type=date],textarea,select{width:100%;padding:10px;border:1px solid #8696a0;border-radius:8px;font:inherit}
fieldset{border:0;padding:0;margin:0}
.choice{display:flex;align-items:flex-start;gap:8px;padding:6px 0}
.choice label{font-weight:400}.description{display:block;font-size:13px;color:#667781}
.footer{margin-top:auto;display:flex;flex-direction:column;gap:6px}
.footer-button{background:#008069;color:#fff;border:0;border-radius:20px;padding:12px;font:inherit;font-weight:600;cursor:pointer}
.link{background:none;border:0;color:#027eb5;padding:0;font:inherit;text-decoration:underline;cursor:pointer}
.nav-list{list-style:none;margin:0;padding:0}.nav-item{width:100%;text-align:left;background:none;border:0;border-bottom:1px solid #e9edef;padding:12px 0;font:inherit;cursor:pointer}
.image{max-width:100%;border-radius:8px}
.error{color:#b3261e;font-size:14px;margin:0}
.unsupported{font-size:13px;color:#667781;font-style:italic}
#completed{padding:32px 16px;text-align:center}
#completed pre{text-align:left;background:#f0f2f5;padding:12px;border-radius:8px;white-space:pre-wrap;word-break:break-word;font-size:13px}
:focus-visible{outline:3px solid #53bdeb;outline-offset:2px}
`;

/** The page script: screen history, data per screen, form answers, actions (docs/cloud-api.md §6.3). */
const SCRIPT = `
(() => {
  const flow = JSON.parse(document.getElementById('flow-data').textContent);
  const screens = new Map(flow.screens.map((s) => [s.id, s]));
  const data = new Map(flow.screens.map((s) => [s.id, { ...s.examples }]));
  const history = [];
  const status = document.getElementById('status');
  let current = null;

  const say = (text) => { status.textContent = text; };
  const section = (id) => document.querySelector('section.screen[data-screen="' + CSS.escape(id) + '"]');

  function formValues(id) {
    const form = section(id).querySelector('form');
    const values = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === 'checkbox' && el.hasAttribute('data-optin')) values[el.name] = el.checked;
      else if (el.type === 'checkbox') { values[el.name] ??= []; if (el.checked) values[el.name].push(el.value); }
      else if (el.type === 'radio') { if (el.checked) values[el.name] = el.value; else values[el.name] ??= undefined; }
      else values[el.name] = el.value;
    }
    return values;
  }

  /** \${form.x} and \${data.x} in an action payload, resolved against the current screen. */
  function resolve(value, id) {
    if (typeof value === 'string') {
      const whole = /^\\$\\{(form|data)\\.([A-Za-z0-9_]+)\\}$/.exec(value);
      const form = formValues(id);
      const lookup = (kind, key) => (kind === 'form' ? form[key] : data.get(id)[key]);
      if (whole) return lookup(whole[1], whole[2]);
      return value.replace(/\\$\\{(form|data)\\.([A-Za-z0-9_]+)\\}/g, (_, kind, key) => String(lookup(kind, key) ?? ''));
    }
    if (Array.isArray(value)) return value.map((v) => resolve(v, id));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, id)]));
    }
    return value;
  }

  function refreshBindings(id) {
    const form = formValues(id);
    for (const span of section(id).querySelectorAll('[data-bind]')) {
      const [kind, key] = span.dataset.bind.split('.');
      const value = kind === 'form' ? form[key] : data.get(id)[key];
      span.textContent = value === undefined || value === null ? '' : Array.isArray(value) ? value.join(', ') : String(value);
    }
  }

  function show(id) {
    for (const s of document.querySelectorAll('section.screen')) s.hidden = s.dataset.screen !== id;
    document.getElementById('completed').hidden = true;
    current = id;
    refreshBindings(id);
    const back = section(id).querySelector('.back');
    back.disabled = history.length === 0;
    section(id).querySelector('h1').focus();
  }

  /** Native checks for inputs and radios; "at least n / at most n" for checkbox groups. */
  function valid(id) {
    const form = section(id).querySelector('form');
    const error = form.querySelector('.error');
    error.textContent = '';
    for (const group of form.querySelectorAll('fieldset[data-group]')) {
      const picked = group.querySelectorAll('input:checked').length;
      const min = Number(group.dataset.min), max = Number(group.dataset.max);
      const first = group.querySelector('input');
      const problem = picked < min ? 'Choose at least ' + min + '.' : max > 0 && picked > max ? 'Choose at most ' + max + '.' : '';
      if (first) first.setCustomValidity(problem);
    }
    if (form.checkValidity()) return true;
    form.reportValidity();
    error.textContent = 'Some answers are missing or invalid.';
    return false;
  }

  function run(action, needsValid) {
    if (!action) return;
    if (needsValid && !valid(current)) return;
    const payload = resolve(action.payload ?? {}, current);
    if (action.name === 'navigate') {
      const next = action.next && action.next.name;
      if (!screens.has(next)) { say('This flow has no screen ' + next + '.'); return; }
      history.push(current);
      data.set(next, { ...screens.get(next).examples, ...payload });
      show(next);
      say('Screen ' + (screens.get(next).title || next));
    } else if (action.name === 'complete') {
      for (const s of document.querySelectorAll('section.screen')) s.hidden = true;
      const done = document.getElementById('completed');
      done.querySelector('pre').textContent = JSON.stringify(payload, null, 2);
      done.hidden = false;
      done.querySelector('h1').focus();
      say('Flow completed');
    } else if (action.name === 'update_data') {
      Object.assign(data.get(current), payload);
      refreshBindings(current);
    } else if (action.name === 'open_url' && typeof action.url === 'string' && /^https:\\/\\//.test(action.url)) {
      window.open(action.url, '_blank', 'noopener');
    } else {
      say('The action ' + action.name + ' calls the business\\'s endpoint; the preview cannot follow it.');
    }
  }

  for (const form of document.querySelectorAll('section.screen form')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const button = event.submitter || form.querySelector('.footer-button');
      run(button && button.dataset.action ? JSON.parse(button.dataset.action) : null, true);
    });
    form.addEventListener('input', () => refreshBindings(current));
  }
  for (const button of document.querySelectorAll('button[type=button][data-action]')) {
    button.addEventListener('click', () => run(JSON.parse(button.dataset.action), false));
  }
  for (const back of document.querySelectorAll('.back')) {
    back.addEventListener('click', () => { if (history.length) show(history.pop()); });
  }
  document.getElementById('restart').addEventListener('click', () => {
    history.length = 0;
    for (const form of document.querySelectorAll('section.screen form')) form.reset();
    for (const s of flow.screens) data.set(s.id, { ...s.examples });
    show(flow.screens[0].id);
  });
  show(flow.screens[0].id);
})();
`;

export interface PreviewPageInput {
  name: string;
  status: string;
  flow: { screens: Json[] };
  nonce: string;
}

export function flowPreviewPage(input: PreviewPageInput): string {
  const screens = input.flow.screens.filter(isObject);
  const sections = screens
    .map((screen, index) => {
      const id = String(screen.id);
      const title = escapeHtml(screen.title ?? id);
      const layout = isObject(screen.layout) ? screen.layout : {};
      const body = renderChildren(layout.children, { prefix: `s${index}`, examples: examplesOf(screen) });
      return `<section class="screen" data-screen="${escapeHtml(id)}" aria-labelledby="title-${index}" hidden>
<header class="title-bar"><button type="button" class="back" aria-label="Back to the previous screen">&#8592;</button><h1 id="title-${index}" tabindex="-1">${title}</h1></header>
<form novalidate>${body}<p class="error" role="alert"></p></form>
</section>`;
    })
    .join('\n');
  const data = {
    screens: screens.map((s) => ({ id: String(s.id), title: s.title, examples: examplesOf(s) })),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(input.name)} — flow preview</title>
<style nonce="${input.nonce}">${STYLE}</style>
</head>
<body>
<p class="note">Preview of the flow <strong>${escapeHtml(input.name)}</strong> (${escapeHtml(input.status)}). Answers stay on this page; nothing is sent.</p>
<main class="phone" aria-label="Flow preview">
${sections}
<section id="completed" hidden aria-labelledby="completed-title">
<h1 id="completed-title" tabindex="-1">Flow completed</h1>
<p>The business would receive this response:</p>
<pre></pre>
<button type="button" class="footer-button" id="restart">Start again</button>
</section>
</main>
<p id="status" class="note" role="status" aria-live="polite"></p>
<script type="application/json" id="flow-data">${scriptJson(data)}</script>
<script nonce="${input.nonce}">${SCRIPT}</script>
</body>
</html>`;
}

export function notFoundPage(nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview not found</title><style nonce="${nonce}">body{font:16px system-ui,sans-serif;max-width:420px;margin:48px auto;padding:0 16px}</style></head>
<body><main><h1>This preview link is not valid</h1><p>It may have expired (links last 30 days) or been changed. Ask for a new preview link.</p></main></body></html>`;
}
