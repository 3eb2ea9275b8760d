/**
 * Checks of `interactive` send bodies: reply buttons, lists, flows, location requests and CTA URLs, with
 * the limits of docs/cloud-api.md §1.3 and §1.5.
 */
import {
  asObject,
  at,
  checkMediaSource,
  invalid,
  type Json,
  missing,
  readArray,
  readObject,
  readString,
  readWebUrl,
  requireUnique,
} from './validate-fields.ts';

export const INTERACTIVE_TYPES = ['button', 'list', 'flow', 'location_request_message', 'cta_url'];

/** Reply buttons and CTA URLs may carry a media header; the others a text header only (docs/cloud-api.md §1.3). */
const MEDIA_HEADER_TYPES = new Set(['button', 'cta_url']);
const EMOJI = /\p{Extended_Pictographic}/u;

function checkHeader(interactive: Json, kind: string): void {
  const header = readObject(interactive, 'header', 'interactive', false);
  if (!header) return;
  const type = readString(header, 'type', 'interactive.header', { max: 16 })!;
  if (type === 'text') {
    readString(header, 'text', 'interactive.header', { max: 60 });
    return;
  }
  if (!['image', 'video', 'document'].includes(type) || !MEDIA_HEADER_TYPES.has(kind)) {
    const allowed = MEDIA_HEADER_TYPES.has(kind) ? 'text, image, video or document' : 'text';
    throw invalid('interactive.header.type', `must be ${allowed} for a ${kind} message`);
  }
  const media = readObject(header, type, 'interactive.header')!;
  checkMediaSource(media, `interactive.header.${type}`);
  if (media.caption !== undefined)
    throw invalid(`interactive.header.${type}.caption`, 'is not allowed in a header');
}

function checkButtons(action: Json): void {
  const path = 'interactive.action.buttons';
  const buttons = readArray(action, 'buttons', 'interactive.action');
  if (buttons.length < 1 || buttons.length > 3)
    throw invalid(path, `must hold 1 to 3 buttons (got ${buttons.length})`);
  const ids: { value: string; path: string }[] = [];
  const titles: { value: string; path: string }[] = [];
  buttons.forEach((item, n) => {
    const button = asObject(item, at(path, n));
    const type = readString(button, 'type', at(path, n), { max: 16 });
    if (type !== 'reply') throw invalid(`${at(path, n)}.type`, 'must be reply');
    const reply = readObject(button, 'reply', at(path, n))!;
    const replyPath = `${at(path, n)}.reply`;
    const id = readString(reply, 'id', replyPath, { max: 256 })!;
    if (id.trim() !== id) throw invalid(`${replyPath}.id`, 'must not start or end with spaces');
    const title = readString(reply, 'title', replyPath, { max: 20 })!;
    ids.push({ value: id, path: `${replyPath}.id` });
    titles.push({ value: title, path: `${replyPath}.title` });
  });
  requireUnique(ids);
  requireUnique(titles);
}

function checkList(action: Json): void {
  readString(action, 'button', 'interactive.action', { max: 20 });
  const path = 'interactive.action.sections';
  const sections = readArray(action, 'sections', 'interactive.action');
  if (sections.length < 1 || sections.length > 10) {
    throw invalid(path, `must hold 1 to 10 sections (got ${sections.length})`);
  }
  const ids: { value: string; path: string }[] = [];
  sections.forEach((item, n) => {
    const sectionPath = at(path, n);
    const section = asObject(item, sectionPath);
    // A title is what tells several sections apart; a single section may go without (docs/cloud-api.md §1.3).
    readString(section, 'title', sectionPath, { max: 24, required: sections.length > 1 });
    const rows = readArray(section, 'rows', sectionPath);
    if (rows.length < 1) throw invalid(`${sectionPath}.rows`, 'must hold at least one row');
    rows.forEach((rowItem, m) => {
      const rowPath = at(`${sectionPath}.rows`, m);
      const row = asObject(rowItem, rowPath);
      ids.push({ value: readString(row, 'id', rowPath, { max: 200 })!, path: `${rowPath}.id` });
      readString(row, 'title', rowPath, { max: 24 });
      readString(row, 'description', rowPath, { min: 0, max: 72, required: false });
    });
  });
  if (ids.length > 10)
    throw invalid(path, `must hold at most 10 rows across all sections (got ${ids.length})`);
  requireUnique(ids);
}

function checkFlow(action: Json): void {
  const name = readString(action, 'name', 'interactive.action', { max: 16 });
  if (name !== 'flow') throw invalid('interactive.action.name', 'must be flow');
  const path = 'interactive.action.parameters';
  const p = readObject(action, 'parameters', 'interactive.action')!;
  const version = p.flow_message_version;
  if (version === undefined) throw missing(`${path}.flow_message_version`);
  if (version !== '3') throw invalid(`${path}.flow_message_version`, 'must be "3"');
  const hasId = p.flow_id !== undefined;
  const hasName = p.flow_name !== undefined;
  if (!hasId && !hasName) throw missing(`${path}.flow_id or ${path}.flow_name`);
  if (hasId && hasName) throw invalid(path, 'must have exactly one of flow_id or flow_name, not both');
  if (hasId) readString(p, 'flow_id', path, { max: 64 });
  if (hasName) readString(p, 'flow_name', path, { max: 200 });
  readString(p, 'flow_token', path, { max: 1024, required: false });
  const cta = readString(p, 'flow_cta', path, { max: 20 })!;
  if (EMOJI.test(cta)) throw invalid(`${path}.flow_cta`, 'must not contain emoji');
  const mode = readString(p, 'mode', path, { max: 16, required: false });
  if (mode !== undefined && mode !== 'published' && mode !== 'draft') {
    throw invalid(`${path}.mode`, 'must be published or draft');
  }
  const flowAction = readString(p, 'flow_action', path, { max: 16, required: false }) ?? 'navigate';
  if (flowAction !== 'navigate' && flowAction !== 'data_exchange') {
    throw invalid(`${path}.flow_action`, 'must be navigate or data_exchange');
  }
  if (flowAction === 'navigate') {
    const payloadPath = `${path}.flow_action_payload`;
    const payload = readObject(p, 'flow_action_payload', path)!;
    readString(payload, 'screen', payloadPath, { max: 200 });
    const data = readObject(payload, 'data', payloadPath, false);
    if (data && Object.keys(data).length === 0)
      throw invalid(`${payloadPath}.data`, 'must not be an empty object');
  }
}

function checkCtaUrl(action: Json): void {
  const name = readString(action, 'name', 'interactive.action', { max: 16 });
  if (name !== 'cta_url') throw invalid('interactive.action.name', 'must be cta_url');
  const p = readObject(action, 'parameters', 'interactive.action')!;
  readString(p, 'display_text', 'interactive.action.parameters', { max: 20 });
  readWebUrl(p, 'url', 'interactive.action.parameters');
}

export function checkInteractive(interactive: Json): void {
  const kind = readString(interactive, 'type', 'interactive', { max: 32 })!;
  if (!INTERACTIVE_TYPES.includes(kind)) {
    throw invalid('interactive.type', `must be one of ${INTERACTIVE_TYPES.join(', ')}`);
  }
  checkHeader(interactive, kind);
  readString(readObject(interactive, 'body', 'interactive')!, 'text', 'interactive.body', { max: 1024 });
  const footer = readObject(interactive, 'footer', 'interactive', false);
  if (footer) readString(footer, 'text', 'interactive.footer', { max: 60 });
  const action = readObject(interactive, 'action', 'interactive')!;
  if (kind === 'button') checkButtons(action);
  else if (kind === 'list') checkList(action);
  else if (kind === 'flow') checkFlow(action);
  else if (kind === 'cta_url') checkCtaUrl(action);
  else if (action.name !== 'send_location') {
    if (action.name === undefined) throw missing('interactive.action.name');
    throw invalid('interactive.action.name', 'must be send_location');
  }
}
