/**
 * Phone numbers are accepted as `+254712345678`, `254712345678`, or with spaces and dashes, and are stored
 * and compared as E.164 digits without `+` (docs/contract.md §2). Validity is the phone-number library's verdict,
 * never a home-made pattern.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Characters a client may use to format a number; anything else makes it invalid. */
const FORMATTING = /[\s\-().]/g;

/**
 * Parsing with full metadata costs tens of microseconds and the same few numbers repeat on every send,
 * so answers are remembered; the cache is emptied when full rather than tracking recency (cheap, bounded).
 */
const cache = new Map<string, string | null>();
const CACHE_LIMIT = 10_000;

/** E.164 digits (no `+`) for a valid number with a country code, else `null`. */
export function normalizePhone(input: string): string | null {
  const known = cache.get(input);
  if (known !== undefined) return known;
  const result = parse(input);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(input, result);
  return result;
}

function parse(input: string): string | null {
  const compact = input.replace(FORMATTING, '');
  if (!/^\+?\d{4,17}$/.test(compact)) return null;
  const parsed = parsePhoneNumberFromString(compact.startsWith('+') ? compact : `+${compact}`);
  if (!parsed?.isValid()) return null;
  return parsed.number.slice(1);
}
