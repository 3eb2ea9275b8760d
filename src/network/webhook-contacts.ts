/**
 * The `contacts` of a webhook change (docs/cloud-api.md §3.4): who a message or a preference is about,
 * by phone number (`wa_id`) and by business-scoped user id (`user_id`, docs/cloud-api.md §10), with the
 * profile name and username shown for them. Read by webhook-events.ts and user-preferences.ts.
 */
import { nameAt, objectAt, objectsAt, phoneAt, userIdAt } from './webhook-fields.ts';

export interface WebhookContact {
  name: string | null;
  username: string | null;
  phone: string | null;
  userId: string | null;
}

/** A change's `contacts`, findable by phone number and by user id. */
export function contactsOf(contacts: unknown, field: string): Map<string, WebhookContact> {
  const found = new Map<string, WebhookContact>();
  for (const [c, at] of objectsAt(contacts, field)) {
    const phone = c.wa_id === undefined ? null : phoneAt(c.wa_id, `${at}.wa_id`);
    const userId = c.user_id === undefined ? null : userIdAt(c.user_id, `${at}.user_id`);
    // A contact naming nobody a message could be from: nothing to read.
    if (!phone && !userId) continue;
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
  return found;
}
