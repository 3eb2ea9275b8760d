/**
 * The `contacts` of a webhook change (docs/cloud-api.md §3.4): who a message or a preference is about,
 * by phone number (`wa_id`) and by business-scoped user id (`user_id`, docs/cloud-api.md §10), with the
 * profile name and username shown for them. Read by webhook-events.ts and user-preferences.ts.
 */
import type { IgnoredItem } from '../domain/ports/network-events.ts';
import { eachObject, nameAt, objectAt, optionalPhoneAt, userIdAt } from './webhook-fields.ts';

export interface WebhookContact {
  name: string | null;
  username: string | null;
  phone: string | null;
  userId: string | null;
}

/**
 * A change's `contacts`, findable by phone number and by user id. A contact with an impossible value is
 * given to `refuse`; a message of theirs then has only its own fields to name its sender.
 */
export function contactsOf(
  contacts: unknown,
  field: string,
  refuse: (item: IgnoredItem) => void,
): Map<string, WebhookContact> {
  const found = new Map<string, WebhookContact>();
  eachObject(contacts, field, (c, at) => readContact(c, at, found), refuse);
  return found;
}

function readContact(c: Record<string, unknown>, at: string, found: Map<string, WebhookContact>): void {
  const phone = optionalPhoneAt(c.wa_id, `${at}.wa_id`);
  const userId = c.user_id === undefined || c.user_id === '' ? null : userIdAt(c.user_id, `${at}.user_id`);
  // A contact naming nobody a message could be from: nothing to read.
  if (!phone && !userId) return;
  const profile = c.profile === undefined ? {} : objectAt(c.profile, `${at}.profile`);
  const contact: WebhookContact = {
    name: profile.name === undefined ? null : nameAt(profile.name, `${at}.profile.name`),
    username: profile.username === undefined ? null : nameAt(profile.username, `${at}.profile.username`),
    phone,
    userId,
  };
  if (phone) found.set(phone, contact);
  if (userId) found.set(userId, contact);
}
