/**
 * Business-scoped user ids (BSUIDs, docs/cloud-api.md §10): the id the network gives each user for one
 * business portfolio, in webhooks' `user_id`/`from_user_id` and a send's `recipient`. Two capital letters
 * (a country), a dot, then up to 128 letters and digits; a parent id has `ENT.` after the country
 * (`US.ENT.11815799212886844830`). Kept and sent back exactly as received.
 */
export const USER_ID = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

export function isUserId(value: string): boolean {
  return USER_ID.test(value);
}

/** A user's key as words: `+` and the digits of a phone number, or the user id as it is. */
export function userLabel(key: string): string {
  return isUserId(key) ? key : `+${key}`;
}
