/**
 * The API's JSON bodies: Fastify's own parser (prototype and constructor poisoning refused, as by default),
 * then each NUL (U+0000) and each lone surrogate in a string, key or value, replaced by U+FFFD
 * (docs/contract.md, "Text"). Stores cannot hold them, so the text is changed where it comes in: the
 * answer, what is stored and what is sent to the network then all say the same. Only a body that may hold
 * one is walked; any other is parsed as before.
 */
import type { FastifyInstance } from 'fastify';
import { mayHoldUnstorableText, storableJson } from '../lib/storable-text.ts';

export function installJsonStorableText(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    parse(request, text, (error, value) => {
      if (error) return done(error);
      done(null, mayHoldUnstorableText(text) ? storableJson(value) : value);
    });
  });
}
