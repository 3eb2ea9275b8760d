/**
 * The gateway holds no NUL character (U+0000) in text (docs/contract.md, "Text"): each becomes U+FFFD, the
 * replacement character. One rule for the API's requests (src/http/json-without-nul.ts) and for what the
 * stores are given (src/store/text-without-nul.ts).
 */
const NUL = '\u0000';
const REPLACEMENT = '\uFFFD';

/** `text` with each NUL replaced; the same string when it holds none. */
export function textWithoutNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text;
}
