/**
 * The gateway holds only text that every store can hold and every client can read back (docs/contract.md,
 * "Text"): no NUL character (U+0000), which PostgreSQL's text refuses, and no lone UTF-16 surrogate (an
 * unpaired `\uD800`–`\uDFFF` escape in JSON), which no UTF-8 store can hold and which each would turn into
 * something else on its own. Each becomes U+FFFD, the replacement character. One rule for the API's
 * requests (src/http/json-storable-text.ts), for the network's webhooks
 * (src/http/routes/network-webhook/receive.ts) and for what the stores are given
 * (src/store/storable-parameters.ts).
 */
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** `text` with each NUL and each lone surrogate replaced; the same string when it holds none. */
export function storableText(text: string): string {
  const clean = text.isWellFormed() ? text : text.toWellFormed();
  return clean.includes(NUL) ? clean.replaceAll(NUL, REPLACEMENT) : clean;
}

/** A parsed JSON value with `storableText` applied to every string in it, keys included. */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)]));
  }
  return value;
}

/**
 * Whether JSON text may hold what `storableText` replaces. Neither can be written raw inside JSON (a raw
 * NUL is refused by the parser, and UTF-8 decoding already replaced any raw surrogate), so only an escape
 * of one (`\u0000`, `\uD800` to `\uDFFF`) can bring it; a surrogate of a well-formed pair is kept as is.
 */
export function mayHoldUnstorableText(json: string): boolean {
  return UNSTORABLE_ESCAPE.test(json);
}

const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
