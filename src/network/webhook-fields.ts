/**
 * The rules every field of a signed network webhook must keep (docs/webhooks.md, "What the gateway accepts
 * from the network"). A signature proves who sent a body, not that its values are possible: whoever holds
 * the app secret, or a network bug, can send anything. A field that breaks its rule is a
 * WebhookFieldError. It refuses the item that holds it (a message, a status, a contact, a change, an
 * entry), which is logged and not stored, and the body's other items are read as usual
 * (docs/adr/0044-one-odd-network-item-never-costs-the-others.md); only a body that is not an envelope at
 * all is answered 400. Values the network can legitimately vary on (clock skew, long names) are clamped.
 */

import type { IgnoredItem } from '../domain/ports/network-events.ts';
import { isUserId } from '../lib/user-id.ts';

export type Json = Record<string, unknown>;

export class WebhookFieldError extends Error {
  override name = 'WebhookFieldError';
  readonly field: string;
  readonly rule: string;
  constructor(field: string, rule: string) {
    super(`${field} ${rule}`);
    this.field = field;
    this.rule = rule;
  }
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The largest array the gateway reads at any level of a body (entries, changes, messages, statuses). */
export const MAX_ITEMS = 10_000;
/** Meta's deepest message (an order's product items, a contact card's addresses) nests 4 levels. */
export const MAX_MESSAGE_DEPTH = 16;
/** Profile names are cut to this many characters (WhatsApp itself allows far fewer). */
export const MAX_NAME_CHARS = 256;
/**
 * How far back a message's time may lie before it counts as impossible: Meta retries an unanswered
 * webhook for up to 7 days, so no real delivery is older than that, with a wide margin.
 */
export const MAX_AGE_MS = 30 * 24 * 3_600_000;

export function objectAt(value: unknown, field: string): Json {
  if (!isObject(value)) throw new WebhookFieldError(field, 'must be an object');
  return value;
}

/** An array the network may omit (absent: empty); anything else is refused, as is one over MAX_ITEMS. */
export function listAt(value: unknown, field: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new WebhookFieldError(field, 'must be an array');
  if (value.length > MAX_ITEMS) throw new WebhookFieldError(field, `must hold at most ${MAX_ITEMS} items`);
  return value;
}

/** The item an impossible value refused, for the route to log: where, and the rule it broke. */
export function refusedItem(error: WebhookFieldError): IgnoredItem {
  return { kind: 'ignored', at: error.field, reason: error.message, refused: true };
}

/**
 * `read(item, path)` for each object of an optional array. An item that is not an object, or in which
 * `read` meets an impossible value, is given to `refuse` instead, and the items after it are still read.
 * An array that is not one, or too long, is the caller's field error.
 */
export function eachObject(
  value: unknown,
  field: string,
  read: (item: Json, path: string) => void,
  refuse: (item: IgnoredItem) => void,
): void {
  for (const [i, item] of listAt(value, field).entries()) {
    const path = `${field}[${i}]`;
    try {
      read(objectAt(item, path), path);
    } catch (error) {
      if (!(error instanceof WebhookFieldError)) throw error;
      refuse(refusedItem(error));
    }
  }
}

/**
 * A user's WhatsApp id where the network may leave it out: absent, or empty (Meta writes `""` for a user
 * who shows only a username, docs/cloud-api.md §10), is null.
 */
export function optionalPhoneAt(value: unknown, field: string): string | null {
  return value === undefined || value === '' ? null : phoneAt(value, field);
}

/** Ids the network gives (message ids, phone-number ids): 1 to 256 visible ASCII characters. */
export function idAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(value)) {
    throw new WebhookFieldError(field, 'must be a string of 1 to 256 visible ASCII characters');
  }
  return value;
}

/** A user's WhatsApp id (`wa_id`, `from`): their phone number's digits, without `+`. */
export function phoneAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) {
    throw new WebhookFieldError(field, 'must be a string of 1 to 20 digits');
  }
  return value;
}

/** A business-scoped user id (src/lib/user-id.ts). */
export function userIdAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isUserId(value)) {
    throw new WebhookFieldError(field, 'must be a business-scoped user id such as US.13491208655302741918');
  }
  return value;
}

/** A short name the network chooses (`type`, `status`): unknown values are the caller's to handle. */
export function wordAt(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) {
    throw new WebhookFieldError(field, 'must be a string of 1 to 64 characters');
  }
  return value;
}

/** A display name: a string, cut to MAX_NAME_CHARS characters (whole code points). */
export function nameAt(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new WebhookFieldError(field, 'must be a string');
  const chars = Array.from(value);
  return chars.length > MAX_NAME_CHARS ? chars.slice(0, MAX_NAME_CHARS).join('') : value;
}

/**
 * A time in Unix seconds, as Meta sends it: a decimal string (`"1732300800"`) or, in a few places, a
 * JSON integer. Returns epoch milliseconds. Anything else (`"1e20"`, `"1.5"`, `"-5"`, more than 12
 * digits) is refused. A well-formed time later than the webhook's arrival, or more than MAX_AGE_MS before
 * it, is impossible for a real message and is taken as the arrival time: a clock ahead of ours must not
 * hold the 24-hour window open into the future, and the network's clock skew must not cost a message.
 */
export function timestampAt(value: unknown, field: string, arrivedAt: number): number {
  const digits = typeof value === 'string' ? value : Number.isSafeInteger(value) ? String(value) : undefined;
  if (digits === undefined || !/^\d{1,12}$/.test(digits)) {
    throw new WebhookFieldError(field, 'must be Unix seconds as a decimal string of 1 to 12 digits');
  }
  const ms = Number(digits) * 1000;
  return ms > arrivedAt || ms < arrivedAt - MAX_AGE_MS ? arrivedAt : ms;
}

/**
 * When a change of the WABA itself happened: its entry's `time` (integer seconds, checked as timestampAt
 * does); absent, its arrival. Template, number and account changes are dated so (docs/cloud-api.md §3.3).
 */
export function entryTimeAt(entry: Json, at: string, arrivedAt: number): number {
  return entry.time === undefined ? arrivedAt : timestampAt(entry.time, `${at}.time`, arrivedAt);
}

/**
 * Refuses a value nested deeper than `max` levels: storing a message serialises it, and serialising a
 * value nested a million levels deep (a few MB of `[`) overflows the stack. Iterative, so the check itself
 * cannot overflow.
 */
export function assertDepth(value: unknown, field: string, max = MAX_MESSAGE_DEPTH): void {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) throw new WebhookFieldError(field, `must not nest deeper than ${max} levels`);
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
}
