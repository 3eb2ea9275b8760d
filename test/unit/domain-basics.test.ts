import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/domain/secrets.ts';
import { canonicalJson } from '../../src/lib/canonical-json.ts';
import { idRandomBytes, newId } from '../../src/lib/ids.ts';
import { normalizePhone } from '../../src/lib/phone.ts';
import { decryptSecret, encryptSecret, rememberingUnsealer } from '../../src/lib/sealed-secrets.ts';
import { failureFromGraphResponse } from '../../src/network/graph-errors.ts';

test('phone numbers are normalized to E.164 digits and invalid ones refused', () => {
  assert.equal(normalizePhone('+254712345678'), '254712345678');
  assert.equal(normalizePhone('254 712-345-678'), '254712345678');
  assert.equal(normalizePhone('+1 (415) 555-0100'), '14155550100');
  for (const bad of [
    '',
    '+',
    '12',
    'abc',
    '+1 555 123',
    '+254712345678x',
    '+0000000000',
    `+${'9'.repeat(30)}`,
  ]) {
    assert.equal(normalizePhone(bad), null, bad);
  }
});

test('ids are prefixed and sort by time', () => {
  const a = newId('msg', 1_000);
  const b = newId('msg', 2_000);
  assert.match(a, /^msg_[0-9a-z]{26}$/);
  assert.ok(a < b);
});

test("ids' random bytes come from a pool, refilled when used up, never repeating a stretch", () => {
  // Enough draws to go through the 4 KiB pool several times over, across its refills.
  const seen = new Set<string>();
  for (let i = 0; i < 2_000; i++) {
    const bytes = idRandomBytes(10);
    assert.equal(bytes.length, 10);
    seen.add(bytes.toString('hex'));
  }
  assert.equal(seen.size, 2_000, 'no two draws alike');
  const ids = new Set(Array.from({ length: 1_000 }, () => newId('msg', 1_000)));
  assert.equal(ids.size, 1_000, 'ids made in one millisecond differ by their random part');
  assert.throws(() => idRandomBytes(5_000), RangeError);
});

test('API keys are random, hashed, and show a prefix only', () => {
  const k = generateApiKey();
  assert.equal(k.hash, hashApiKey(k.key));
  assert.ok(k.key.startsWith(k.prefix));
  assert.notEqual(generateApiKey().key, k.key);
});

test('sealed secrets round-trip and refuse tampering or another key', () => {
  const key = randomBytes(32);
  const sealed = encryptSecret('EAAG-token', key);
  assert.equal(decryptSecret(sealed, key), 'EAAG-token');
  assert.ok(!sealed.includes('EAAG'));
  assert.throws(() => decryptSecret(sealed, randomBytes(32)));
  const parts = sealed.split('.');
  parts[3] = Buffer.from('EAAG-tokeX').toString('base64url');
  assert.throws(() => decryptSecret(parts.join('.'), key));
});

test('a remembering unsealer opens each sealed text once, a rotated one anew, and keeps at most its maximum', () => {
  const key = randomBytes(32);
  const opened: string[] = [];
  const unseal = rememberingUnsealer(key, 2, (sealed, k) => {
    opened.push(sealed);
    return decryptSecret(sealed, k);
  });
  const first = encryptSecret('whsec_first', key);
  assert.equal(unseal(first), 'whsec_first');
  assert.equal(unseal(first), 'whsec_first');
  assert.deepEqual(opened, [first], 'opened once for two deliveries');
  // A rotation seals the new secret anew: another text, opened, never answered with the old secret.
  const rotated = encryptSecret('whsec_second', key);
  assert.equal(unseal(rotated), 'whsec_second');
  const third = encryptSecret('whsec_third', key);
  assert.equal(unseal(third), 'whsec_third');
  // Three texts with room for two: the oldest was dropped and is opened again.
  assert.equal(unseal(first), 'whsec_first');
  assert.deepEqual(opened, [first, rotated, third, first]);
  const tampered = first.split('.');
  tampered[3] = Buffer.from('whsec_forged').toString('base64url');
  assert.throws(() => unseal(tampered.join('.')), 'a tampered text is refused, not remembered');
});

test('canonical JSON ignores key order and undefined values', () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 2, c: undefined }] }), canonicalJson({ a: [{ d: 2 }], b: 1 }));
});

test('graph errors are classified by code, not by text', () => {
  const body = (code: number) => ({ error: { message: 'x', code, error_data: { details: 'd' } } });
  assert.equal(failureFromGraphResponse(400, body(130429), null).kind, 'transient');
  assert.equal(failureFromGraphResponse(400, body(131056), null).kind, 'transient');
  assert.equal(failureFromGraphResponse(400, body(131047), null).kind, 'permanent');
  assert.equal(failureFromGraphResponse(400, body(100), null).details, 'd');
  assert.equal(failureFromGraphResponse(503, null, '7').retryAfterMs, 7000);
  // A 5xx that is not a Graph error came from something in between: whether the network took it is unknown.
  assert.equal(failureFromGraphResponse(502, 'html', null).kind, 'unknown_outcome');
  assert.equal(failureFromGraphResponse(503, body(131016), null).kind, 'transient');
  assert.equal(failureFromGraphResponse(429, null, null).throttled, true);
});
