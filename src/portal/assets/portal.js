// @ts-check
// Progressive enhancement only: every page works without this script. Type-checked by
// `npm run typecheck` (tsconfig.json beside it). A module: the template form's preview is its own file.
import { previewTemplate } from './template-preview.js';

document.addEventListener('DOMContentLoaded', () => {
  // Copy buttons appear only where the clipboard can be written.
  if (navigator.clipboard) {
    for (const button of document.querySelectorAll('button.copy[data-copy]')) {
      if (!(button instanceof HTMLButtonElement)) continue;
      button.hidden = false;
      button.addEventListener('click', async () => {
        await navigator.clipboard.writeText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
        setTimeout(() => {
          button.textContent = 'Copy';
        }, 2000);
      });
    }
  }
  // A chosen Flow JSON file fills the text area, which is what the form sends.
  for (const picker of document.querySelectorAll('input[type=file][data-fills]')) {
    if (!(picker instanceof HTMLInputElement)) continue;
    picker.hidden = false;
    const label = document.querySelector(`label[for="${picker.id}"]`);
    if (label instanceof HTMLElement) label.hidden = false;
    picker.addEventListener('change', async () => {
      const file = picker.files?.[0];
      const target = document.getElementById(picker.dataset.fills ?? '');
      if (file && target instanceof HTMLTextAreaElement) target.value = await file.text();
    });
  }
  // A password being chosen can be shown while typed, so that a typo is seen before it is the password.
  for (const field of document.querySelectorAll('input[type=password][autocomplete=new-password]')) {
    if (field instanceof HTMLInputElement) offerToShow(field);
  }
  // The campaign wizard offers the browser's own time zone as the schedule's default.
  for (const zone of document.querySelectorAll('input[data-browser-zone]')) {
    if (zone instanceof HTMLInputElement && !zone.value) {
      zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
    }
  }
  const live = document.querySelector('[data-progress][data-live]');
  if (live instanceof HTMLElement) followCampaign(live);
  for (const form of document.querySelectorAll('form[data-template-form]')) {
    if (form instanceof HTMLFormElement) previewTemplate(form);
  }
  for (const holder of document.querySelectorAll('[data-live-stream]')) {
    if (holder instanceof HTMLElement) followStream(holder);
  }
  for (const chooser of document.querySelectorAll('form[data-saved-replies]')) {
    if (chooser instanceof HTMLFormElement) insertSavedReplies(chooser);
  }
  showLocalTimes(document);
  // A form that came back with a problem: the summary at the top takes the focus, so the keyboard and
  // screen readers start there, and its link leads to the first field to fix.
  const problem = document.querySelector('main .alert[role=alert]');
  if (problem instanceof HTMLElement) {
    problem.tabIndex = -1;
    problem.focus();
  }
});

/**
 * The zone times are shown in: the one the user chose on their profile (the page's `data-time-zone`,
 * src/portal/layout.ts), else this browser's.
 */
function chosenZone() {
  return document.body.dataset.timeZone || undefined;
}

/** `2026-11-26 05:22:14` of a moment in `timeZone` (this browser's when undefined). */
function localClock(/** @type {Date} */ at, /** @type {string | undefined} */ timeZone) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const part = (/** @type {string} */ type) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/**
 * Times are written in UTC by the gateway (src/portal/components.ts `when`), which is right for no one in
 * particular: here each is shown in the user's chosen zone or this browser's, with the zone's name, and
 * the UTC time stays in its title.
 * @param {ParentNode} root
 */
function showLocalTimes(root) {
  const timeZone = chosenZone();
  const zone = new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: 'short' });
  for (const element of root.querySelectorAll('time[datetime]')) {
    if (!(element instanceof HTMLTimeElement) || element.dataset.local) continue;
    const at = new Date(element.dateTime);
    if (Number.isNaN(at.getTime())) continue;
    const name = zone.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
    element.title = element.textContent ?? '';
    element.textContent = `${localClock(at, timeZone)} ${name}`.trim();
    element.dataset.local = 'true';
  }
}

/**
 * What /app/campaigns/<id>/progress answers (progressJson in src/portal/campaigns/campaign-progress.ts).
 * @typedef {{status: string, live: boolean, percent: number, words: string, counts: Record<string, number>}} Progress
 */

/**
 * A campaign under way: its counts are read again every 2 seconds and drawn into the elements that show
 * them (src/portal/campaigns/campaign-progress.ts names them). When the status changes, the page is
 * loaded again, so that its buttons and recipients fit the new status.
 * @param {HTMLElement} card
 */
function followCampaign(card) {
  const url = card.dataset.progress ?? '';
  const chart = card.querySelector('svg[data-chart-width]');
  const width = Number(chart?.getAttribute('data-chart-width') ?? 0);
  const poll = async () => {
    /** @type {Progress} */
    let progress;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' } });
      if (!response.ok) return;
      progress = await response.json();
    } catch {
      return; // a network hiccup or a signed-out session: the page stays as it is
    }
    if (progress.status !== card.dataset.status) {
      // Without the notice of the action that led here: it told of the status before this one.
      const next = new URL(window.location.href);
      next.searchParams.delete('notice');
      window.location.replace(next.href);
      return;
    }
    drawProgress(card, progress, width);
    polls++;
    if (polls % TIMELINE_EVERY === 0 || !progress.live) await redrawTimeline(card);
    if (progress.live) setTimeout(poll, 2000);
  };
  let polls = 0;
  setTimeout(poll, 2000);
}

/** The chart of statuses over time is fetched again every this many polls (10 s): it costs more to read. */
const TIMELINE_EVERY = 5;

/**
 * Replaces the chart of statuses over time with the one the gateway draws now: markup of the gateway's
 * own making (src/portal/campaigns/campaign-timeline-chart.ts), every value in it escaped there.
 * @param {HTMLElement} card
 */
async function redrawTimeline(card) {
  const holder = card.querySelector('[data-timeline]');
  if (!(holder instanceof HTMLElement)) return;
  try {
    const response = await fetch(holder.dataset.timeline ?? '', { headers: { accept: 'text/html' } });
    if (response.ok) {
      holder.innerHTML = await response.text();
      showLocalTimes(holder);
    }
  } catch {
    // The chart stays as it was until the next try.
  }
}

/**
 * @param {HTMLElement} card
 * @param {Progress} progress
 * @param {number} width
 */
function drawProgress(card, progress, width) {
  const total = progress.counts.total ?? 0;
  for (const element of card.querySelectorAll('[data-count]')) {
    const value = progress.counts[element.getAttribute('data-count') ?? ''];
    if (value !== undefined) element.textContent = String(value);
  }
  for (const bar of card.querySelectorAll('[data-bar]')) {
    const value = progress.counts[bar.getAttribute('data-bar') ?? ''] ?? 0;
    bar.setAttribute('width', String(total === 0 ? 0 : Math.round((width * value) / total)));
  }
  const meter = card.querySelector('progress[data-progress-bar]');
  if (meter instanceof HTMLProgressElement) {
    meter.max = Math.max(1, total);
    meter.value = progress.counts.handled ?? 0;
    meter.textContent = `${progress.percent}%`;
  }
  for (const percent of card.querySelectorAll('[data-percent]'))
    percent.textContent = String(progress.percent);
  const words = card.querySelector('[data-chart-words]');
  if (words) words.textContent = progress.words;
}

/**
 * A page that follows the gateway's server-sent events (the inbox, src/portal/inbox/inbox-live.ts): on each
 * `change` the page is fetched again and each of its `data-live-part` elements takes the fresh one's
 * content, which the gateway escaped when it drew it. What the user is typing elsewhere on the page stays.
 *
 * The page fetched is `data-live-page` when the holder names one (a conversation shown again after a
 * refused reply has the form's address, which is not a page), else this one. Each time the stream opens the
 * page is fetched once, for what changed before the stream began to compare. Only a tab in view keeps its
 * stream open: a browser gives a site six connections, and hidden tabs holding one each would leave none
 * for a seventh page or a reply. A tab coming back into view opens it again and catches up at once.
 * @param {HTMLElement} holder
 */
function followStream(holder) {
  if (!('EventSource' in window)) return;
  const pageUrl = holder.dataset.livePage ?? window.location.href;
  /** @type {EventSource | undefined} */
  let source;
  const open = () => {
    if (source) return;
    source = new EventSource(holder.dataset.liveStream ?? '');
    source.addEventListener('change', () => void refresh());
    // A stream compares what changes from its own start: what changed between the page's drawing and
    // that start (or while a stream was being opened again) is caught up by fetching the page once.
    source.addEventListener('open', () => void refresh());
  };
  const close = () => {
    source?.close();
    source = undefined;
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') return close();
    open();
    void refresh();
  });
  // Times left in the 24-hour window count down with no change to announce: drawn again each minute.
  setInterval(() => {
    if (document.visibilityState !== 'hidden') void refresh();
  }, 60_000);
  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const response = await fetch(pageUrl, { headers: { accept: 'text/html' } });
      if (response.ok) swapParts(holder, new DOMParser().parseFromString(await response.text(), 'text/html'));
    } catch {
      // a network hiccup or a signed-out session: the page stays as it is until the next change
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  if (document.visibilityState !== 'hidden') open();
}

/** What the gateway last drew in each live part (its HTML as the page's parser wrote it). */
const lastDrawn = new WeakMap();

/**
 * @param {HTMLElement} holder
 * @param {Document} fresh
 */
function swapParts(holder, fresh) {
  // The holder's parts, and the menu's count of unread messages, which is outside it.
  const parts = [
    ...Array.from(holder.querySelectorAll('[data-live-part]'), (el) => ({ el, attribute: 'data-live-part' })),
    ...Array.from(document.querySelectorAll('[data-menu-part]'), (el) => ({
      el,
      attribute: 'data-menu-part',
    })),
  ];
  for (const { el: part, attribute } of parts) {
    if (!(part instanceof HTMLElement)) continue;
    const next = fresh.querySelector(`[${attribute}="${part.getAttribute(attribute)}"]`);
    if (!next) continue;
    // A part in use (a field with the focus, say the assignee being chosen) is left as it is until the
    // next change: replacing it would drop what the person is doing.
    const active = document.activeElement;
    const editing =
      active instanceof HTMLInputElement ||
      active instanceof HTMLSelectElement ||
      active instanceof HTMLTextAreaElement;
    if (editing && part.contains(active)) continue;
    // A part the gateway drew the same as last time is left alone: replacing it would undo what the
    // person did in it meanwhile (an option chosen, a box ticked) for nothing.
    const drawn = next.innerHTML;
    if (drawn === (lastDrawn.get(part) ?? part.innerHTML)) continue;
    lastDrawn.set(part, drawn);
    // A part with a key (the reply box: the window open or closed) is drawn again only when its key
    // changes, so that what is typed in it stays otherwise.
    const key = next.getAttribute('data-live-key');
    if (key !== null) {
      if (part.dataset.liveKey === key) continue;
      part.dataset.liveKey = key;
    }
    part.replaceChildren(...Array.from(next.childNodes, (node) => document.importNode(node, true)));
    showLocalTimes(part);
  }
}

/**
 * "Put in the message" puts the saved reply where the cursor is in the message box, keeping what was
 * typed, instead of reloading the page with the saved text alone.
 */
function insertSavedReplies(/** @type {HTMLFormElement} */ chooser) {
  chooser.addEventListener('submit', (event) => {
    const select = chooser.elements.namedItem('saved');
    const box = document.getElementById('f-message');
    if (!(select instanceof HTMLSelectElement) || !(box instanceof HTMLTextAreaElement)) return;
    const item = document.querySelector(`[data-saved-texts] li[data-id="${CSS.escape(select.value)}"]`);
    if (!item) return;
    event.preventDefault();
    const text = item.textContent ?? '';
    const start = box.selectionStart ?? box.value.length;
    const end = box.selectionEnd ?? start;
    box.value = box.value.slice(0, start) + text + box.value.slice(end);
    box.focus();
    box.setSelectionRange(start + text.length, start + text.length);
  });
}

/**
 * A "Show the characters" box after a password input: checked, the input shows what is typed.
 * @param {HTMLInputElement} field
 */
function offerToShow(field) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = `${field.id}-show`;
  box.addEventListener('change', () => {
    field.type = box.checked ? 'text' : 'password';
  });
  const label = document.createElement('label');
  label.htmlFor = box.id;
  label.textContent = 'Show the characters';
  const holder = document.createElement('div');
  holder.className = 'check';
  holder.append(box, label);
  field.after(holder);
}
