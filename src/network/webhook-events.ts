/**
 * Reads the Cloud API webhook envelope (docs/cloud-api.md §3.3–§3.9) into flat events, checking every
 * field it reads (src/network/webhook-fields.ts): an item with an impossible value (an entry, a change, a
 * message, a status, a contact) becomes a refused item, which the route logs, and the body's other items
 * are read as usual; only a body that is not an envelope is a WebhookFieldError. Fields the gateway does not read are passed over,
 * so Meta may add to its payloads freely; changes of other kinds (`business_capability_update`, ...), an
 * `account_update` that stops no sending, and messages that name no sender become `ignored` items, which
 * the route logs.
 *
 * A sender is a phone number (`from`), a business-scoped user id (`from_user_id`, docs/cloud-api.md §10),
 * or both; `contacts[]` gives their profile name and username, matched by either.
 */

import type {
  IgnoredItem,
  InboundMessageEvent,
  NetworkEvent,
  StatusEvent,
  TemplateStatusEvent,
} from '../domain/ports/network-events.ts';
import { accountChange } from './account-updates.ts';
import { preferencesChange } from './user-preferences.ts';
import { contactsOf, type WebhookContact } from './webhook-contacts.ts';
import {
  assertDepth,
  eachObject,
  entryTimeAt,
  idAt,
  isObject,
  type Json,
  objectAt,
  optionalPhoneAt,
  timestampAt,
  userIdAt,
  WebhookFieldError,
  wordAt,
} from './webhook-fields.ts';

export type { IgnoredItem, InboundMessageEvent, NetworkEvent, StatusEvent, TemplateStatusEvent };
export { WebhookFieldError };

/**
 * The message types of the Cloud API. Any other type (a kind of message newer than
 * this gateway, or garbage) is kept as `unsupported`, as the network itself reports messages it cannot
 * show: never dropped, and never used as a field name it could clash with.
 */
export const INBOUND_TYPES: ReadonlySet<string> = new Set([
  'text',
  'image',
  'video',
  'audio',
  'document',
  'sticker',
  'location',
  'contacts',
  'interactive',
  'button',
  'reaction',
  'order',
  'system',
  'request_welcome',
  'unsupported',
]);

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

function errorsOf(value: unknown): StatusEvent['errors'] {
  return (Array.isArray(value) ? value : []).filter(isObject).map((e) => {
    const data = e.error_data;
    const details = isObject(data) ? str(data.details) : str(data);
    return {
      // Only a number or a string is converted: converting a nested array recurses once per level.
      code: Number(str(e.code)) || 0,
      title: str(e.title) ?? str(e.message) ?? 'error',
      ...(details ? { details } : {}),
    };
  });
}

function messageOf(
  m: Json,
  at: string,
  phoneNumberId: string,
  contacts: Map<string, WebhookContact>,
  now: number,
): InboundMessageEvent | IgnoredItem {
  const fromPhone = optionalPhoneAt(m.from, `${at}.from`);
  const fromUserId =
    m.from_user_id === undefined || m.from_user_id === ''
      ? null
      : userIdAt(m.from_user_id, `${at}.from_user_id`);
  // With neither field, the change's one contact (when there is exactly one) is who wrote: some payloads
  // name the sender only there.
  const only = new Set(contacts.values()).size === 1 ? (contacts.values().next().value ?? null) : null;
  const contact =
    (fromUserId && contacts.get(fromUserId)) ||
    (fromPhone && contacts.get(fromPhone)) ||
    (!fromPhone && !fromUserId ? only : null);
  const userPhone = fromPhone ?? contact?.phone ?? null;
  const userId = fromUserId ?? contact?.userId ?? null;
  if (!userPhone && !userId) {
    return {
      kind: 'ignored',
      at,
      reason: 'a message with neither `from` nor `from_user_id`: no sender to route it by',
    };
  }
  const type = wordAt(m.type, `${at}.type`);
  assertDepth(m, at);
  return {
    kind: 'message',
    phoneNumberId,
    userPhone,
    userId,
    username: contact?.username ?? null,
    profileName: contact?.name ?? null,
    waId: idAt(m.id, `${at}.id`),
    at: timestampAt(m.timestamp, `${at}.timestamp`, now),
    type: INBOUND_TYPES.has(type) ? type : 'unsupported',
    message: m,
  };
}

function messagesChange(value: Json, at: string, events: NetworkEvent[], now: number): void {
  const metadata = objectAt(value.metadata, `${at}.metadata`);
  const phoneNumberId = idAt(metadata.phone_number_id, `${at}.metadata.phone_number_id`);
  const push = (event: NetworkEvent) => events.push(event);
  const contacts = contactsOf(value.contacts, `${at}.contacts`, push);
  eachObject(
    value.messages,
    `${at}.messages`,
    (m, path) => push(messageOf(m, path, phoneNumberId, contacts, now)),
    push,
  );
  eachObject(
    value.statuses,
    `${at}.statuses`,
    (s, path) => push(statusOf(s, path, phoneNumberId, now)),
    push,
  );
  // Errors of the number itself, not of a message: said in the log, as nobody's message carries them.
  eachObject(
    value.errors,
    `${at}.errors`,
    (e, path) => {
      const [error] = errorsOf([e]);
      if (error)
        push({ kind: 'ignored', at: path, reason: `the network reports (#${error.code}) ${error.title}` });
    },
    push,
  );
}

function statusOf(s: Json, path: string, phoneNumberId: string, now: number): StatusEvent {
  return {
    kind: 'status',
    phoneNumberId,
    waId: idAt(s.id, `${path}.id`),
    status: wordAt(s.status, `${path}.status`),
    at: timestampAt(s.timestamp, `${path}.timestamp`, now),
    errors: errorsOf(s.errors),
    // Empty for a user who shows only a username (docs/cloud-api.md §10): nobody by number.
    recipient: str(s.recipient_id) || null,
    recipientUserId: str(s.recipient_user_id) || null,
    // Only a string is the network's echo of what a send carried; anything else is not ours.
    callbackData: typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data : null,
    network: s,
  };
}

function templateChange(value: unknown, entry: Json, at: string, events: NetworkEvent[], now: number) {
  if (!isObject(value)) return;
  const templateId = str(value.message_template_id);
  const event = str(value.event);
  if (!templateId || !event) return;
  const reason = str(value.reason) ?? 'NONE';
  const time = entryTimeAt(entry, at, now);
  const rejectionInfo = rejectionInfoOf(value.rejection_info);
  events.push({ kind: 'template_status', templateId, event, reason, rejectionInfo, at: time });
}

/** The most of `rejection_info`'s texts kept: words for a person, never a document. */
const REJECTION_TEXT_MAX = 2000;

/** `rejection_info` when it holds the two texts (either may be empty); anything else is none. */
function rejectionInfoOf(value: unknown): { reason: string; recommendation: string } | null {
  if (!isObject(value)) return null;
  const reason = typeof value.reason === 'string' ? value.reason : '';
  const recommendation = typeof value.recommendation === 'string' ? value.recommendation : '';
  if (!reason && !recommendation) return null;
  return {
    reason: reason.slice(0, REJECTION_TEXT_MAX),
    recommendation: recommendation.slice(0, REJECTION_TEXT_MAX),
  };
}

const CATEGORIES: ReadonlySet<string> = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);

/**
 * A template's new category (§3.6). Meta posts it twice: a day ahead, with `correct_category` (the category
 * to come; `new_category` is then the current one), and when the change is made, with `previous_category`.
 * Only the change made is applied; the notice is logged.
 */
function categoryChange(value: unknown, entry: Json, at: string, events: NetworkEvent[], now: number) {
  const templateId = isObject(value) ? str(value.message_template_id) : undefined;
  const category = isObject(value) ? str(value.new_category) : undefined;
  if (!isObject(value) || !templateId || !category || !CATEGORIES.has(category)) {
    events.push({
      kind: 'ignored',
      at,
      reason: 'a template_category_update without its template and category',
    });
    return;
  }
  const coming = str(value.correct_category);
  if (coming !== undefined) {
    const reason = `a notice that template ${templateId.slice(0, 64)} becomes ${coming.slice(0, 32)}; applied when the change is made`;
    events.push({ kind: 'ignored', at, reason });
    return;
  }
  const time = entryTimeAt(entry, at, now);
  events.push({ kind: 'template_category', templateId, category, at: time });
}

const QUALITY_SCORES: ReadonlySet<string> = new Set(['GREEN', 'YELLOW', 'RED', 'UNKNOWN']);

/** A template's new quality rating (§3.6). */
function templateQualityChange(value: unknown, entry: Json, at: string, events: NetworkEvent[], now: number) {
  const templateId = isObject(value) ? str(value.message_template_id) : undefined;
  const score = isObject(value) ? str(value.new_quality_score) : undefined;
  if (!templateId || !score || !QUALITY_SCORES.has(score)) {
    const reason = 'a message_template_quality_update without its template and score';
    events.push({ kind: 'ignored', at, reason });
    return;
  }
  const time = entryTimeAt(entry, at, now);
  events.push({ kind: 'template_quality', templateId, score, at: time });
}

function qualityChange(value: unknown, entry: Json, at: string, events: NetworkEvent[], now: number) {
  const phone = isObject(value) ? str(value.display_phone_number)?.replace(/\D/g, '') : undefined;
  const event = isObject(value) ? str(value.event) : undefined;
  if (!isObject(value) || !phone || !event) {
    events.push({
      kind: 'ignored',
      at,
      reason: 'a phone_number_quality_update without its number and event',
    });
    return;
  }
  // `max_daily_conversations_per_business` replaces `current_limit` in Meta's newer payloads.
  const currentLimit = str(value.max_daily_conversations_per_business) ?? str(value.current_limit) ?? null;
  const time = entryTimeAt(entry, at, now);
  events.push({ kind: 'number_quality', phone, event, currentLimit, at: time });
}

/** The events of one change, at `path` (e.g. `entry[0].changes[1]`), in its order. */
function changeEvents(change: Json, entry: Json, path: string, events: NetworkEvent[], now: number): void {
  if (change.field === 'message_template_status_update') {
    templateChange(change.value, entry, path, events, now);
  } else if (change.field === 'message_template_quality_update') {
    templateQualityChange(change.value, entry, path, events, now);
  } else if (change.field === 'template_category_update') {
    categoryChange(change.value, entry, path, events, now);
  } else if (change.field === 'account_update') {
    events.push(accountChange(change.value, entry, path, now));
  } else if (change.field === 'phone_number_quality_update') {
    qualityChange(change.value, entry, path, events, now);
  } else if (change.field === 'messages') {
    messagesChange(objectAt(change.value, `${path}.value`), `${path}.value`, events, now);
  } else if (change.field === 'user_preferences') {
    events.push(...preferencesChange(change.value, `${path}.value`, now));
  } else {
    // Only a string is quoted: anything else (a nested array, say) is named by its kind.
    const field = typeof change.field === 'string' ? change.field.slice(0, 64) : typeof change.field;
    events.push({
      kind: 'ignored',
      at: path,
      reason: `a change of field "${field}", which the gateway does not handle`,
    });
  }
}

/**
 * The events of one webhook body, in body order. An entry, a change or an item of one with an impossible
 * value is a refused item among them (webhook-fields.ts); a body that is not an object, or whose `entry`
 * is not an array, throws WebhookFieldError. `now` is the body's arrival (impossible times are clamped to it).
 */
export function readWebhookEvents(body: unknown, now = Date.now()): NetworkEvent[] {
  const events: NetworkEvent[] = [];
  const push = (event: NetworkEvent) => events.push(event);
  const envelope = objectAt(body, 'the body');
  eachObject(
    envelope.entry,
    'entry',
    (entry, at) =>
      eachObject(
        entry.changes,
        `${at}.changes`,
        (change, path) => {
          // A change's events go in only once it is read whole: a change refused half-way adds nothing.
          const own: NetworkEvent[] = [];
          changeEvents(change, entry, path, own, now);
          events.push(...own);
        },
        push,
      ),
    push,
  );
  return events;
}

/**
 * The events of a parsed webhook body, or the words of the rule it breaks (the route answers them as a
 * 400): what the webhook route is given, so it needs nothing of this module but this function.
 */
export function webhookEventsOrRefusal(body: unknown, now = Date.now()): NetworkEvent[] | string {
  try {
    return readWebhookEvents(body, now);
  } catch (error) {
    if (error instanceof WebhookFieldError) return error.message;
    throw error;
  }
}
