/**
 * The API's JSON bodies: Fastify's own parser (prototype and constructor poisoning refused, as by default),
 * then each NUL (U+0000) and each lone surrogate in a string, key or value, replaced by U+FFFD
 * (docs/contract.md, "Text"). Stores cannot hold them, so the text is changed where it comes in: the
 * answer, what is stored and what is sent to the network then all say the same. Neither can be written raw
 * inside JSON (a raw NUL is refused, and UTF-8 decoding already replaced any raw surrogate), so only a body
 * holding an escape of one (`\u0000`, `\uD800` to `\uDFFF`) is walked; any other is parsed as before.
 */
import type { FastifyInstance } from 'fastify';
import { storableText } from '../lib/storable-text.ts';

function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableValue(v)]));
  }
  return value;
}

/** An escape of NUL or of a surrogate; a surrogate in a well-formed pair is walked and kept as it is. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

export function installJsonStorableText(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parse(request, text, (error, value) => {
      if (error) return done(error);
      done(null, UNSTORABLE_ESCAPE.test(text) ? storableValue(value) : value);
    });
  });
}
