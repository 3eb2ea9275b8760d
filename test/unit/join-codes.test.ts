import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateJoinCode, JOIN_CODE_WORDS } from '../../src/domain/secrets.ts';

const CODE = /^([a-z]+)-([a-z]+)-([a-z]+)-(\d{6})$/;

test('join codes carry at least 40 bits: three words of 256 and six digits', () => {
  const words = new Set(JOIN_CODE_WORDS);
  assert.equal(words.size, JOIN_CODE_WORDS.length, 'no word twice');
  for (const word of words) assert.match(word, /^[a-z]{2,8}$/, 'short lowercase words a phone types');
  const bits = 3 * Math.log2(words.size) + Math.log2(10 ** 6);
  assert.ok(bits >= 40, `only ${bits.toFixed(1)} bits`);
});

test('generated codes draw every word and every digit, and do not repeat', () => {
  const codes = Array.from({ length: 4000 }, generateJoinCode);
  const seenWords = new Set<string>();
  const digitsAt = Array.from({ length: 6 }, () => new Set<string>());
  for (const code of codes) {
    const parts = CODE.exec(code);
    assert.ok(parts, `${code} is word-word-word-NNNNNN`);
    for (const word of parts.slice(1, 4)) {
      assert.ok(JOIN_CODE_WORDS.includes(word!), `${word} is a listed word`);
      seenWords.add(word!);
    }
    for (const [i, digit] of [...parts[4]!].entries()) digitsAt[i]!.add(digit);
  }
  // 12,000 draws from 256 words: a word never drawn (chance about 256·e^-47) means part of the list is unused.
  assert.equal(seenWords.size, JOIN_CODE_WORDS.length);
  for (const seen of digitsAt) assert.equal(seen.size, 10, 'every position takes every digit');
  // 4,000 codes from 2^43.9: a repeat (chance about 10^-6) would mean far less randomness than claimed.
  assert.equal(new Set(codes).size, codes.length);
});
