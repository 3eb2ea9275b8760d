/**
 * The gateway holds only text that every store can hold and every client can read back (docs/contract.md,
 * "Text"): no NUL character (U+0000), which PostgreSQL's text refuses, and no lone UTF-16 surrogate (an
 * unpaired `\uD800`–`\uDFFF` escape in JSON), which no UTF-8 store can hold and which each would turn into
 * something else on its own. Each becomes U+FFFD, the replacement character. One rule for the API's
 * requests (src/http/json-storable-text.ts) and for what the stores are given
 * (src/store/storable-parameters.ts).
 */
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** `text` with each NUL and each lone surrogate replaced; the same string when it holds none. */
export function storableText(text: string): string {
  const clean = text.isWellFormed() ? text : text.toWellFormed();
  return clean.includes(NUL) ? clean.replaceAll(NUL, REPLACEMENT) : clean;
}
