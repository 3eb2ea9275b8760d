/**
 * Reads a change of field `account_update` (docs/cloud-api.md §3.9): news about a WhatsApp Business
 * Account as a whole. What stops the account from starting conversations becomes an
 * `account_restriction` event (its campaigns pause): business-initiated messaging restricted
 * (`ACCOUNT_RESTRICTION` with `RESTRICTED_BIZ_INITIATED_MESSAGING`), the account disabled
 * (`DISABLED_UPDATE` with the ban state `DISABLE`), or deleted (`ACCOUNT_DELETED`). Everything else (a
 * violation warning, a disable still only scheduled, partner and pricing news) is an `ignored` item the
 * route logs with the event's name. Only fields read here are checked; Meta adds to these payloads often.
 */
import type { AccountRestrictionEvent, IgnoredItem } from '../domain/ports/network-events.ts';
import { entryTimeAt, isObject, type Json } from './webhook-fields.ts';

/** Ids, event names and dates are short printable ASCII; anything else is not read (it ends in a reason). */
const text = (v: unknown) => (typeof v === 'string' && /^[\x20-\x7e]{1,64}$/.test(v) ? v : undefined);

/** `waba_ban_state` is a string in some payloads and a list of them in others. */
const banStates = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

/** The restriction of business-initiated messaging, with its end when said. */
function bizRestriction(value: Json): { until: string | undefined } | undefined {
  const items = Array.isArray(value.restriction_info) ? value.restriction_info : [value.restriction_info];
  for (const item of items) {
    if (isObject(item) && item.restriction_type === 'RESTRICTED_BIZ_INITIATED_MESSAGING')
      return { until: text(item.expiration) };
  }
  return undefined;
}

/** What the update does to the account's sending, in words; undefined when it stops nothing. */
function stopOf(value: Json, event: string, wabaId: string): string | undefined {
  const account = `WhatsApp Business Account ${wabaId}`;
  if (event === 'ACCOUNT_RESTRICTION') {
    const restriction = bizRestriction(value);
    if (!restriction) return undefined;
    const until = restriction.until ? ` until ${restriction.until}` : '';
    return `the network restricted business-initiated messaging of ${account}${until}`;
  }
  if (event === 'DISABLED_UPDATE') {
    const ban = isObject(value.ban_info) ? value.ban_info : {};
    return banStates(ban.waba_ban_state).includes('DISABLE') ? `the network disabled ${account}` : undefined;
  }
  return event === 'ACCOUNT_DELETED' ? `the network deleted ${account}` : undefined;
}

export function accountChange(
  value: unknown,
  entry: Json,
  at: string,
  now: number,
): AccountRestrictionEvent | IgnoredItem {
  const wabaId = text(entry.id);
  const event = isObject(value) ? text(value.event) : undefined;
  if (!wabaId || !event || !isObject(value))
    return { kind: 'ignored', at, reason: 'an account_update without its account and event' };
  const reason = stopOf(value, event, wabaId);
  if (!reason) return { kind: 'ignored', at, reason: `an account_update "${event}", which stops no sending` };
  const time = entryTimeAt(entry, at, now);
  return { kind: 'account_restriction', wabaId, reason, at: time };
}
