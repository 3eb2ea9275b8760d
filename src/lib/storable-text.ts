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

/** An object or an array: a place whose members are read and written by key. */
type Holder = { [key: string]: unknown };

/**
 * A parsed JSON value with `storableText` applied to every string in it, keys included; the value itself is
 * left as it was. Walked with a stack of its own rather than by recursion: JSON.parse takes a body nested
 * tens of thousands deep, which a recursive walk would answer with a stack overflow.
 */
export function storableJson(value: unknown): unknown {
  const root: Holder = { value };
  const slots: [Holder, string][] = [[root, 'value']];
  for (let slot = slots.pop(); slot; slot = slots.pop()) {
    const [holder, key] = slot;
    const item = holder[key];
    if (typeof item === 'string') holder[key] = storableText(item);
    if (item === null || typeof item !== 'object') continue;
    // A copy with its keys made storable: an array stays an array, an object's keys stay own properties,
    // as JSON.parse made them (a key `__proto__` stays a key, never a prototype).
    const copy: Holder = Array.isArray(item)
      ? Object.assign<unknown[], Holder>([], { ...item })
      : Object.fromEntries(Object.entries(item).map(([k, v]) => [storableText(k), v]));
    holder[key] = copy;
    for (const child of Object.keys(copy)) slots.push([copy, child]);
  }
  return root.value;
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
