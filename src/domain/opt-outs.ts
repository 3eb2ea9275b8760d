/**
 * Opting out of a business number's marketing (docs/opt-outs.md). A user who sends an opt-out keyword
 * (STOP, in several languages) to one of the business's own numbers, whom the network reports as not
 * accepting marketing (error 131050), or who stops the number's marketing in WhatsApp's own settings (the
 * network's `user_preferences` webhook), is opted out of that number's MARKETING templates; an opt-in
 * keyword (START), or resuming the number's marketing in those settings, opts them back in. A marketing
 * template to an opted-out user is refused before it is sent (templates/resolve-template-send.ts); utility
 * and authentication templates, and replies inside the 24-hour window, are not affected. Each change is a
 * `contact.opted_out` / `contact.opted_in` event.
 *
 * The shared sandbox number keeps its own `stop`, which leaves the sandbox altogether (inbound.ts).
 */
import { normalizePhone } from '../lib/phone.ts';
import { isUserId, userLabel } from '../lib/user-id.ts';
import { GatewayError } from './errors.ts';
import type { OptOut, OptOutsStore } from './ports/opt-outs.ts';

/** The usual opt-out words of SMS and WhatsApp marketing, in English, French, German, Spanish and Portuguese. */
export const DEFAULT_OPT_OUT_KEYWORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'ARRET',
  'ARRÊT',
  'STOPP',
  'BAJA',
  'PARAR',
  'SAIR',
] as const;

export const DEFAULT_OPT_IN_KEYWORDS = [
  'START',
  'UNSTOP',
  'SUBSCRIBE',
  'INICIAR',
  'DEMARRER',
  'DÉMARRER',
] as const;

/** The network's error for a user who does not accept marketing messages (docs/cloud-api.md §2.3). */
export const NOT_ACCEPTING_MARKETING = 131050;

export interface OptOutKeywords {
  optOut: readonly string[];
  optIn: readonly string[];
}

/**
 * The keyword a message is, if it is one: the whole text, whatever its case and the punctuation or
 * spaces around it ("Stop.", " STOP! "). A keyword inside a sentence ("please don't stop") is not one.
 */
export function keywordOf(text: string, keywords: readonly string[]): string | undefined {
  const word = text
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '')
    .toLocaleUpperCase('en');
  return keywords.find((k) => k.toLocaleUpperCase('en') === word);
}

/** What a `contact.opted_out` / `contact.opted_in` event says (docs/webhooks.md). */
export function optOutEvent(optOut: OptOut) {
  return {
    from: optOut.user,
    to: optOut.businessPhone,
    source: optOut.source,
    keyword: optOut.keyword,
    timestamp: new Date(optOut.at).toISOString(),
  };
}

/**
 * A text a user sent to one of the account's numbers: an opt-out or opt-in keyword changes their opt-out
 * (a repeated delivery changes nothing and records no second event). Returns whether anything changed.
 */
export async function applyOptOutKeyword(
  store: OptOutsStore,
  keywords: OptOutKeywords,
  accountId: string,
  message: { businessPhone: string; user: string; text: string; at: number },
): Promise<boolean> {
  const { businessPhone, user, at } = message;
  const out = keywordOf(message.text, keywords.optOut);
  if (out) {
    const optOut = { businessPhone, user, at, source: 'keyword' as const, keyword: out };
    return store.optOut(accountId, optOut, optOutEvent);
  }
  const back = keywordOf(message.text, keywords.optIn);
  if (!back) return false;
  const optIn = { businessPhone, user, at, source: 'keyword' as const, keyword: back };
  return store.optIn(accountId, optIn, optOutEvent);
}

/** The network refused a marketing message because the user does not accept marketing: they are out. */
export function optOutByNetwork(
  store: OptOutsStore,
  accountId: string,
  message: { businessPhone: string; user: string; at: number },
): Promise<boolean> {
  const optOut = { ...message, source: 'network' as const, keyword: null };
  return store.optOut(accountId, optOut, optOutEvent);
}

/**
 * The user stopped or resumed the number's marketing in WhatsApp's own settings: they are out, or back
 * in. Returns whether anything changed (a repeated webhook changes nothing and records no second event).
 */
export function applyMarketingPreference(
  store: OptOutsStore,
  accountId: string,
  preference: { businessPhone: string; user: string; at: number; value: 'stop' | 'resume' },
): Promise<boolean> {
  const { value, ...who } = preference;
  const change = { ...who, source: 'preference' as const, keyword: null };
  return value === 'stop'
    ? store.optOut(accountId, change, optOutEvent)
    : store.optIn(accountId, change, optOutEvent);
}

/** How the user opted out, in the words of a refusal. */
function howOptedOut(optOut: OptOut): string {
  if (optOut.source === 'keyword') return `by replying "${optOut.keyword}"`;
  if (optOut.source === 'preference') return 'by stopping its marketing messages in WhatsApp';
  return `as the network reported (${NOT_ACCEPTING_MARKETING}: not accepting marketing messages)`;
}

/** A marketing template may not go to a user who opted out of the number's marketing: a 422 that says when. */
export async function refuseIfOptedOut(
  store: Pick<OptOutsStore, 'find'>,
  accountId: string,
  businessPhone: string,
  user: string,
): Promise<void> {
  const optOut = await store.find(accountId, businessPhone, user);
  if (!optOut) return;
  throw new GatewayError(
    'opted_out',
    `${userLabel(user)} opted out of marketing from +${businessPhone} on ${new Date(optOut.at).toISOString()} ${howOptedOut(optOut)}; marketing templates are not sent to them until they opt in again (START${optOut.source === 'preference' ? ', or resuming them in WhatsApp' : ''})`,
    { field: 'to' },
  );
}

/** The most opt-outs a page lists. */
export const OPT_OUTS_PER_PAGE = 200;

/** How an opt-out is listed (GET /api/v1/opt-outs): as its `contact.opted_out` event said it. */
export type OptOutView = ReturnType<typeof optOutEvent>;

/**
 * A page of the account's opt-outs in force, newest first (docs/opt-outs.md). `number` keeps one of its
 * numbers' and `user` one user's (a phone number in any written form, or a business-scoped user id): each
 * is a 400 naming it when it is neither.
 */
export async function listOptOuts(
  store: Pick<OptOutsStore, 'list'>,
  accountId: string,
  query: { number?: string | undefined; user?: string | undefined; page: number; perPage: number },
): Promise<{ optOuts: OptOutView[]; total: number }> {
  const invalid = (field: string, rule: string) =>
    new GatewayError('invalid_request', `\`${field}\` must be ${rule}`, { field });
  const businessPhone = query.number === undefined ? undefined : normalizePhone(query.number);
  if (businessPhone === null) throw invalid('number', 'a phone number with country code');
  const user =
    query.user === undefined ? undefined : isUserId(query.user) ? query.user : normalizePhone(query.user);
  if (user === null) throw invalid('user', 'a phone number with country code, or a business-scoped user id');
  const offset = (query.page - 1) * query.perPage;
  const { optOuts, total } = await store.list(
    accountId,
    { businessPhone, user },
    { offset, limit: query.perPage },
  );
  return { optOuts: optOuts.map(optOutEvent), total };
}
