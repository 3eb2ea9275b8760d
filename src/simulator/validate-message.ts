/**
 * The network's own checks of a `POST /{phone-number-id}/messages` body (docs/cloud-api.md §1.1, §1.3–§1.5).
 * A body is either a message to send or a mark-as-read; anything else is refused with the Graph error
 * Meta would answer, naming the field (see validate-fields.ts for the codes).
 */
import { normalizePhone } from '../lib/phone.ts';
import { isSingleEmoji } from '../lib/single-emoji.ts';
import { GraphProblem, graphError } from './graph-errors.ts';
import {
  asObject,
  at,
  checkMediaSource,
  invalid,
  isObject,
  type Json,
  missing,
  onlyKeys,
  readArray,
  readObject,
  readString,
  wrongType,
} from './validate-fields.ts';
import { checkInteractive } from './validate-interactive.ts';

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'];
export const MESSAGE_TYPES = [
  'text',
  ...MEDIA_TYPES,
  'location',
  'contacts',
  'interactive',
  'reaction',
  'template',
];
const CAPTIONED = new Set(['image', 'video', 'document']);

/** The keys each of these objects has on the Cloud API (docs/cloud-api.md §1.3); any other is refused. */
const KEYS: Record<string, ReadonlySet<string>> = {
  text: new Set(['body', 'preview_url']),
  media: new Set(['id', 'link', 'caption', 'filename', 'provider']),
  location: new Set(['latitude', 'longitude', 'name', 'address']),
  reaction: new Set(['message_id', 'emoji']),
  template: new Set(['name', 'namespace', 'language', 'components']),
  'template.language': new Set(['code', 'policy']),
};

export interface MarkAsRead {
  kind: 'read';
  messageId: string;
  /** With a typing indicator: the user sees "typing…" (docs/cloud-api.md §1.4). */
  typing: boolean;
}

export interface OutgoingMessage {
  kind: 'message';
  /** `to` (or `recipient`) exactly as sent: the answer echoes it in `contacts[].input` (docs/cloud-api.md §1.2). */
  input: string;
  /** The recipient's E.164 digits (`wa_id`). */
  recipient: string;
  /** The business-scoped user id the send named instead of a number (docs/cloud-api.md §10). */
  userId?: string;
  type: string;
  /** The Cloud API message without the envelope keys: `{type, [type]: {...}, context?}`. */
  message: Json;
  callbackData?: string;
}

function checkMedia(type: string, media: Json): void {
  checkMediaSource(media, type);
  if (media.caption !== undefined) {
    if (!CAPTIONED.has(type)) throw invalid(`${type}.caption`, `is not supported for ${type} messages`);
    readString(media, 'caption', type, { min: 0, max: 1024 });
  }
  if (media.filename !== undefined) {
    if (type !== 'document') throw invalid(`${type}.filename`, 'is supported for document messages only');
    readString(media, 'filename', type, { max: 240 });
  }
}

function checkCoordinate(location: Json, key: 'latitude' | 'longitude', limit: number): void {
  const value = location[key];
  if (value === undefined || value === null) throw missing(`location.${key}`);
  if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType(`location.${key}`, 'a number');
  if (Math.abs(value) > limit) throw invalid(`location.${key}`, `must be between -${limit} and ${limit}`);
}

function checkContacts(body: Json): void {
  const cards = readArray(body, 'contacts', '');
  if (cards.length === 0) throw invalid('contacts', 'must hold at least one contact');
  cards.forEach((item, n) => {
    const path = at('contacts', n);
    const card = asObject(item, path);
    readString(readObject(card, 'name', path)!, 'formatted_name', `${path}.name`, { max: 1000 });
    if (card.phones !== undefined) {
      readArray(card, 'phones', path).forEach((phone, m) => {
        readString(asObject(phone, at(`${path}.phones`, m)), 'phone', at(`${path}.phones`, m), { max: 64 });
      });
    }
  });
}

function checkTypeObject(type: string, body: Json): void {
  if (type === 'contacts') {
    checkContacts(body);
    return;
  }
  const content = readObject(body, type, '')!;
  const keys = KEYS[MEDIA_TYPES.includes(type) ? 'media' : type];
  if (keys) onlyKeys(content, type, keys);
  if (type === 'text') {
    readString(content, 'body', 'text', { max: 4096 });
    if (content.preview_url !== undefined && typeof content.preview_url !== 'boolean') {
      throw wrongType('text.preview_url', 'a boolean');
    }
  } else if (MEDIA_TYPES.includes(type)) checkMedia(type, content);
  else if (type === 'location') {
    checkCoordinate(content, 'latitude', 90);
    checkCoordinate(content, 'longitude', 180);
    readString(content, 'name', 'location', { min: 0, max: 1000, required: false });
    readString(content, 'address', 'location', { min: 0, max: 1000, required: false });
  } else if (type === 'interactive') checkInteractive(content);
  else if (type === 'reaction') {
    readString(content, 'message_id', 'reaction', { max: 256 });
    const emoji = readString(content, 'emoji', 'reaction', { min: 0, max: 16 })!;
    // An empty emoji removes the reaction (docs/cloud-api.md §1.3).
    if (emoji !== '' && !isSingleEmoji(emoji)) throw invalid('reaction.emoji', 'must be a single emoji');
  } else if (type === 'template') {
    readString(content, 'name', 'template', { max: 512 });
    const language = readObject(content, 'language', 'template')!;
    onlyKeys(language, 'template.language', KEYS['template.language']!);
    readString(language, 'code', 'template.language', { max: 16 });
  }
}

function parseMarkAsRead(body: Json): MarkAsRead {
  if (body.status !== 'read') throw invalid('status', 'must be read');
  const messageId = readString(body, 'message_id', '', { max: 256 })!;
  const typing = readObject(body, 'typing_indicator', '', false);
  if (typing && typing.type !== 'text') throw invalid('typing_indicator.type', 'must be text');
  return { kind: 'read', messageId, typing: typing !== undefined };
}

/**
 * Who a send is for: `to`, a phone number, or else `recipient`, a business-scoped user id this business's
 * users were given (`phoneOfUserId`); `to` wins when both are there, as on Meta (docs/cloud-api.md §10).
 */
function recipientOf(
  body: Json,
  business: string,
  phoneOfUserId: (id: string) => string | undefined,
): Pick<OutgoingMessage, 'input' | 'recipient' | 'userId'> {
  if (body.to === undefined && body.recipient !== undefined) {
    const input = readString(body, 'recipient', '', { max: 160 })!;
    const phone = phoneOfUserId(input);
    if (!phone) {
      throw new GraphProblem(
        graphError(
          100,
          `Parameter 'recipient' is not a user id of this business's users: ${JSON.stringify(input)}.`,
        ),
      );
    }
    return { input, recipient: phone, userId: input };
  }
  const input = readString(body, 'to', '', { max: 64 })!;
  const recipient = normalizePhone(input);
  if (!recipient) {
    throw new GraphProblem(
      graphError(100, `Parameter 'to' is not a valid WhatsApp user phone number: ${JSON.stringify(input)}.`),
    );
  }
  if (recipient === business) {
    throw new GraphProblem(graphError(131021, `Parameter 'to' is the sending business number ${business}.`));
  }
  return { input, recipient };
}

/**
 * Graph reads an object or array parameter given as a JSON-encoded string as the value it encodes (its
 * parameters were form fields first); clients rely on it (one sends `contacts` so). A string that is not
 * such JSON stays as it is, for the type checks to refuse.
 */
function decodeJsonParameter(body: Json, name: string): void {
  const value = body[name];
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return;
  try {
    body[name] = JSON.parse(value) as unknown;
  } catch {
    // Not JSON: refused below as the wrong type.
  }
}

/** Reads a request body sent by the business number `business`; throws a GraphProblem when invalid. */
export function parseSendRequest(
  raw: unknown,
  business: string,
  phoneOfUserId: (id: string) => string | undefined = () => undefined,
): MarkAsRead | OutgoingMessage {
  if (raw !== undefined && !isObject(raw)) {
    throw new GraphProblem(graphError(100, 'The request body must be a JSON object.'));
  }
  const body = raw ?? {};
  const product = readString(body, 'messaging_product', '', { max: 32 });
  if (product !== 'whatsapp') throw invalid('messaging_product', 'must be whatsapp');
  if (body.status !== undefined) return parseMarkAsRead(body);

  const recipientType = readString(body, 'recipient_type', '', { max: 32, required: false });
  if (recipientType !== undefined && recipientType !== 'individual') {
    throw invalid('recipient_type', 'must be individual (groups are not simulated)');
  }
  const who = recipientOf(body, business, phoneOfUserId);
  // `type` defaults to text when omitted (docs/cloud-api.md §1.1).
  const type = body.type ?? 'text';
  if (typeof type !== 'string' || !MESSAGE_TYPES.includes(type)) {
    throw new GraphProblem(
      graphError(
        100,
        `Parameter 'type' must be one of ${MESSAGE_TYPES.join(', ')} (got ${JSON.stringify(type)}).`,
      ),
    );
  }
  const context = readObject(body, 'context', '', false);
  if (context) readString(context, 'message_id', 'context', { max: 256 });
  const callbackData = readString(body, 'biz_opaque_callback_data', '', { max: 512, required: false });
  decodeJsonParameter(body, type);
  checkTypeObject(type, body);

  const message: Json = { type, [type]: body[type] };
  if (context) message.context = context;
  return { kind: 'message', ...who, type, message, ...(callbackData ? { callbackData } : {}) };
}
