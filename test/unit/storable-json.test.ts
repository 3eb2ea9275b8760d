/**
 * `storableJson` (src/lib/storable-text.ts): every string of a parsed JSON body, keys included, with NUL
 * and lone surrogates replaced, however deep the body nests; arrays stay arrays, keys stay own keys, and
 * the value given is left as it was.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storableJson } from '../../src/lib/storable-text.ts';

test('strings and keys at every depth are made storable; shapes and the given value are kept', () => {
  const given = JSON.parse(
    '{"__proto__":{"a":"\\u0000"},"k\\u0000":["\\ud800",1,null,true,{"z":"ok"}],"n":2}',
  );
  const out = storableJson(given) as Record<string, unknown>;
  assert.equal(
    JSON.stringify(out),
    '{"__proto__":{"a":"\uFFFD"},"k\uFFFD":["\uFFFD",1,null,true,{"z":"ok"}],"n":2}',
  );
  assert.ok(Object.hasOwn(out, '__proto__'), 'an own key, not a prototype');
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
  assert.ok(Array.isArray(out['k\uFFFD']));
  assert.equal(given['k\u0000'][0], '\ud800', 'the parsed value is not changed');
  assert.equal(storableJson('\u0000'), '\uFFFD');
  assert.equal(storableJson(5), 5);
});

test('a body nested 50,000 deep, which JSON.parse takes, is walked without overflowing the stack', () => {
  const deep = JSON.parse(`{"x":"\\u0000","y":${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}}`);
  const out = storableJson(deep) as { x: string; y: unknown };
  assert.equal(out.x, '\uFFFD');
  let inner: unknown = out.y;
  for (let i = 0; i < 50_000; i++) inner = (inner as unknown[])[0];
  assert.equal(inner, '\uFFFD');
});
