/**
 * Reads a change of field `user_preferences` (docs/cloud-api.md §3.8): a user stopped or resumed a
 * business number's marketing messages in WhatsApp's own settings. Each `user_preferences[]` item of
 * category `marketing_messages` with value `stop` or `resume` becomes one event; an item of another
 * category or value (one newer than this gateway) becomes an `ignored` item, which the route logs. A field
 * with an impossible value refuses its item, as in every other change (webhook-fields.ts).
 */
import type { IgnoredItem, MarketingPreferenceEvent } from '../domain/ports/network-events.ts';
import { contactsOf } from './webhook-contacts.ts';
import {
  eachObject,
  idAt,
  type Json,
  objectAt,
  optionalPhoneAt,
  timestampAt,
  userIdAt,
} from './webhook-fields.ts';

const VALUES: ReadonlySet<string> = new Set(['stop', 'resume']);

/** Quoted in a log line: a string cut short, anything else named by its kind. */
const shown = (value: unknown) => (typeof value === 'string' ? `"${value.slice(0, 64)}"` : typeof value);

function preferenceOf(
  item: Json,
  at: string,
  phoneNumberId: string,
  userIdOf: (phone: string | null) => string | null,
  now: number,
): MarketingPreferenceEvent | IgnoredItem {
  if (item.category !== 'marketing_messages')
    return { kind: 'ignored', at, reason: `a user preference of category ${shown(item.category)}` };
  const value = item.value;
  if (typeof value !== 'string' || !VALUES.has(value))
    return { kind: 'ignored', at, reason: `a marketing preference of value ${shown(value)}` };
  const userPhone = optionalPhoneAt(item.wa_id, `${at}.wa_id`);
  const userId =
    item.user_id === undefined || item.user_id === ''
      ? userIdOf(userPhone)
      : userIdAt(item.user_id, `${at}.user_id`);
  if (!userPhone && !userId)
    return { kind: 'ignored', at, reason: 'a marketing preference with neither `wa_id` nor `user_id`' };
  return {
    kind: 'marketing_preference',
    phoneNumberId,
    userPhone,
    userId,
    value: value as MarketingPreferenceEvent['value'],
    // Meta sends this one as a JSON integer; absent, the change is dated by its arrival.
    at: item.timestamp === undefined ? now : timestampAt(item.timestamp, `${at}.timestamp`, now),
  };
}

/** The events of one `user_preferences` change's `value`, at `at` (e.g. `entry[0].changes[0].value`). */
export function preferencesChange(
  value: unknown,
  at: string,
  now: number,
): (MarketingPreferenceEvent | IgnoredItem)[] {
  const change = objectAt(value, at);
  const metadata = objectAt(change.metadata, `${at}.metadata`);
  const phoneNumberId = idAt(metadata.phone_number_id, `${at}.metadata.phone_number_id`);
  // A user's business-scoped id, when the change names it beside their number (docs/cloud-api.md §10).
  const events: (MarketingPreferenceEvent | IgnoredItem)[] = [];
  const push = (event: MarketingPreferenceEvent | IgnoredItem) => events.push(event);
  const contacts = contactsOf(change.contacts, `${at}.contacts`, push);
  const userIdOf = (phone: string | null) => (phone ? (contacts.get(phone)?.userId ?? null) : null);
  eachObject(
    change.user_preferences,
    `${at}.user_preferences`,
    (item, path) => push(preferenceOf(item, path, phoneNumberId, userIdOf, now)),
    push,
  );
  return events;
}
