/**
 * What a message says, drawn for the inbox's thread (docs/inbox.md), for both directions: a received
 * message is the network's message object, a sent one the Cloud API body the gateway sent; both name their
 * type and keep its part under that name. Every value is escaped by `html`; links go only to the gateway's
 * own copies of files, to a map, or to an https address the business itself sent.
 */
import { html, isolate, type SafeHtml } from '../html.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `first_name` → `First name`: a flow's field names as labels. */
function labelOf(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  return JSON.stringify(value);
}

/** A completed flow's answers as a labelled table (its token is the gateway's, not an answer). */
function flowAnswers(reply: Json): SafeHtml {
  let answers: Json = {};
  try {
    answers = obj(JSON.parse(str(reply.response_json) ?? '{}'));
  } catch {}
  const rows = Object.entries(answers).filter(([key]) => key !== 'flow_token');
  return html`<p class="kind">Flow answers</p>${
    rows.length
      ? html`<table class="answers"><caption class="visually-hidden">Answers to the flow</caption><tbody>${rows.map(
          // Each isolated: a right-to-left override in an answer must not reorder what follows it.
          ([key, value]) =>
            html`<tr><th scope="row"><bdi>${labelOf(key)}</bdi></th><td><bdi>${valueText(value)}</bdi></td></tr>`,
        )}</tbody></table>`
      : html`<p>The flow was completed without answers.</p>`
  }`;
}

/** An interactive message: a customer's tap or flow completion, or what the business offered. */
function interactive(part: Json): SafeHtml {
  if (part.type === 'nfm_reply') return flowAnswers(obj(part.nfm_reply));
  const tapped = obj(part.button_reply).title ?? obj(part.list_reply).title;
  if (typeof tapped === 'string') {
    const description = str(obj(part.list_reply).description);
    return html`<p><span class="kind">Tapped</span> ${tapped}${description ? html` <span class="hint">(${description})</span>` : ''}</p>`;
  }
  const action = obj(part.action);
  const offers = [
    ...list(action.buttons).map((b) => str(obj(obj(b).reply).title)),
    str(action.button),
    str(obj(action.parameters).flow_cta),
    str(obj(action.parameters).display_text),
  ].filter((o): o is string => o !== undefined);
  return html`${str(obj(part.header).text) ? html`<p class="kind">${str(obj(part.header).text)}</p>` : ''}<p class="text">${str(obj(part.body).text) ?? ''}</p>${
    offers.length
      ? html`<ul class="offers" aria-label="Offered">${offers.map((o) => html`<li>${o}</li>`)}</ul>`
      : ''
  }`;
}

/** A point on a map, with a link to it when both coordinates are numbers. */
function location(part: Json): SafeHtml {
  const { latitude: lat, longitude: lon } = part;
  const mapped =
    typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon);
  const href = mapped ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}` : '';
  const name = str(part.name);
  const address = str(part.address);
  return html`<p class="kind">Location</p>${name ? html`<p>${name}</p>` : ''}${address ? html`<p>${address}</p>` : ''}${
    mapped
      ? html`<p><a href="${href}" rel="noopener noreferrer" target="_blank">Open on a map (${String(lat)}, ${String(lon)})<span class="visually-hidden"> (opens in a new tab)</span></a></p>`
      : ''
  }`;
}

function contactCard(contact: Json): SafeHtml {
  const name = str(obj(contact.name).formatted_name) ?? 'A contact';
  const phones = list(contact.phones)
    .map((p) => str(obj(p).phone))
    .filter(Boolean);
  const emails = list(contact.emails)
    .map((e) => str(obj(e).email))
    .filter(Boolean);
  const company = str(obj(contact.org).company);
  return html`<div class="contact-card"><p><strong>${name}</strong>${company ? html` · ${company}` : ''}</p>
${phones.length ? html`<p>Phone: ${phones.join(', ')}</p>` : ''}${emails.length ? html`<p>Email: ${emails.join(', ')}</p>` : ''}</div>`;
}

const MEDIA_WORDS: Record<string, string> = {
  image: 'Photo',
  video: 'Video',
  audio: 'Voice message or audio',
  document: 'Document',
  sticker: 'Sticker',
};

/** A file: shown from the gateway's copy when it has one (`copy`), else named, with the business's own link. */
function media(kind: string, part: Json, copy: string | undefined): SafeHtml {
  const caption = str(part.caption);
  const name = str(part.filename);
  const words = MEDIA_WORDS[kind] ?? kind;
  let shown: SafeHtml | string = '';
  if (copy && (kind === 'image' || kind === 'sticker'))
    shown = html`<img src="${copy}" alt="${caption ?? `${words} from the customer`}" loading="lazy">`;
  else if (copy && kind === 'video') shown = html`<video src="${copy}" controls preload="metadata"></video>`;
  else if (copy && kind === 'audio') shown = html`<audio src="${copy}" controls preload="metadata"></audio>`;
  const link = str(part.link);
  const open = copy
    ? html`<a href="${copy}">Open the ${words.toLowerCase()}${name ? html` ${name}` : ''}</a>`
    : link?.startsWith('https://')
      ? html`<a href="${link}" rel="noopener noreferrer" target="_blank">${name ?? link}<span class="visually-hidden"> (opens in a new tab)</span></a>`
      : (name ?? '');
  return html`<p class="kind">${words}</p>${shown}${caption ? html`<p class="text">${caption}</p>` : ''}${open ? html`<p>${open}</p>` : ''}`;
}

/** A template the business sent: its name and the values it was filled with. */
function template(part: Json, ownName: (name: string) => string): SafeHtml {
  const values = list(part.components).flatMap((c) =>
    list(obj(c).parameters)
      .map((p) => str(obj(p).text) ?? str(obj(p).payload))
      .filter(Boolean),
  );
  return html`<p class="kind">Template <code>${ownName(str(part.name) ?? '')}</code>${str(obj(part.language).code) ? html` · ${str(obj(part.language).code)}` : ''}</p>${
    values.length ? html`<p>Values: ${values.map((v) => isolate(v ?? '')).join(' · ')}</p>` : ''
  }`;
}

export interface ContentOptions {
  /** The link to the gateway's copy of a received file, if it has one. */
  copy?: string | undefined;
  /** A sandbox template's network name as the account named it. */
  ownName(name: string): string;
}

/** The body of one message bubble. */
export function messageContent(type: string, json: string, options: ContentOptions): SafeHtml {
  let message: Json;
  try {
    message = obj(JSON.parse(json));
  } catch {
    return html`<p class="hint">This ${type} message could not be read.</p>`;
  }
  const kind = str(message.type) ?? type;
  const part = obj(message[kind]);
  switch (kind) {
    case 'text':
      return html`<p class="text">${str(part.body) ?? ''}</p>`;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return media(kind, part, options.copy);
    case 'location':
      return location(part);
    case 'contacts':
      return html`<p class="kind">Contact card</p>${list(message.contacts).map((c) => contactCard(obj(c)))}`;
    case 'interactive':
      return interactive(part);
    case 'button':
      return html`<p><span class="kind">Tapped</span> ${str(part.text) ?? str(part.payload) ?? ''}</p>`;
    case 'reaction':
      return html`<p>${str(part.emoji) ? html`Reacted ${str(part.emoji)}` : 'Removed a reaction'}</p>`;
    case 'template':
      return template(part, options.ownName);
    default:
      return html`<p class="hint">A ${kind} message, which the inbox does not show.</p>`;
  }
}
