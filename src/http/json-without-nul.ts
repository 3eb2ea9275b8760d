/**
 * The API's JSON bodies: Fastify's own parser (prototype and constructor poisoning refused, as by default),
 * then each NUL (U+0000) in a string, key or value, replaced by U+FFFD (docs/contract.md, "Text"). Stores
 * cannot all hold NUL, so the text is changed where it comes in: the answer, what is stored and what is
 * sent to the network then all say the same. A raw NUL is not valid inside JSON, so only a body holding the
 * escape `\u0000` is walked; any other is parsed as before.
 */
import type { FastifyInstance } from 'fastify';
import { textWithoutNul } from '../lib/without-nul.ts';

function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return textWithoutNul(value);
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [textWithoutNul(k), withoutNul(v)]));
  }
  return value;
}

export function installJsonWithoutNul(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parse(request, text, (error, value) => {
      if (error) return done(error);
      done(null, text.includes('\\u0000') ? withoutNul(value) : value);
    });
  });
}
