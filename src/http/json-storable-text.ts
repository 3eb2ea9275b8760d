/**
 * The API's JSON bodies: Fastify's own parser (prototype and constructor poisoning refused, as by default),
 * then each NUL (U+0000) and each lone surrogate in a string, key or value, replaced by U+FFFD
 * (docs/contract.md, "Text"). Stores cannot hold them, so the text is changed where it comes in: the
 * answer, what is stored and what is sent to the network then all say the same. Only a body that may hold
 * one is walked; any other is parsed as before. A `messageId` holding one is refused instead: it is the
 * client's own key, and changed it could name another message.
 *
 * An empty body is taken as none by an operation that reads no body (publish a flow, rotate a secret):
 * many clients send `Content-Type: application/json` on every request. One that reads a body still says
 * it is empty.
 *
 * Fastify's parser gives one error for a body that is not JSON and for one it refuses for a poisoning key;
 * the client is told which (the second is valid JSON, and "not valid JSON" would send them looking for a
 * syntax error that is not there).
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import { mayHoldUnstorableText, storableJson, storableText } from '../lib/storable-text.ts';

export function installJsonStorableText(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // Many clients name JSON on every request: an operation that reads no body takes an empty one so.
    if (text.trim() === '' && !request.routeOptions.schema?.body) return done(null, undefined);
    parse(request, text, (error, value) => {
      if (error) return done(isJson(text) ? refusedKey() : error);
      if (!mayHoldUnstorableText(text)) return done(null, value);
      // A key the client chose is never changed: two different ones would become one.
      if (unstorableMessageId(value)) return done(unstorableKey());
      done(null, storableJson(value));
    });
  });
}

function unstorableMessageId(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'messageId')) return false;
  const id = (value as { messageId: unknown }).messageId;
  return typeof id === 'string' && storableText(id) !== id;
}

function unstorableKey(): GatewayError {
  return new GatewayError(
    'invalid_request',
    '`messageId` holds a NUL character or a lone surrogate, which no store can hold; a messageId is kept exactly as sent, so it is refused rather than changed',
    { field: 'messageId' },
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function refusedKey(): GatewayError {
  return new GatewayError(
    'invalid_request',
    'the request body holds a `__proto__` key, or a `constructor` key holding `prototype`; neither is accepted',
  );
}
