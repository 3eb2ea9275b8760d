import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinLimitPolicies, joinLimits, waitInWords } from '../../src/domain/join-limits.ts';
import { memoryRateLimiter } from '../../src/domain/rate-limit.ts';

function limitsAt(settings: { perPhone: number; perMinute: number }) {
  let now = 1_800_000_000_000;
  const policies = joinLimitPolicies(settings);
  const limits = joinLimits({
    phone: memoryRateLimiter(policies.phone, () => now),
    sandbox: memoryRateLimiter(policies.sandbox, () => now),
  });
  return { limits, advance: (ms: number) => (now += ms) };
}

test('a phone makes five attempts at once, then waits a minute for each next one', async () => {
  const { limits, advance } = limitsAt({ perPhone: 5, perMinute: 1000 });
  for (let i = 0; i < 5; i++) assert.equal(await limits.admit('14155550100', '254700000001'), null);
  assert.equal(await limits.admit('14155550100', '254700000001'), 60);
  assert.equal(await limits.admit('14155550100', '254700000002'), null, 'other phones are not held');
  advance(59_000);
  assert.equal(await limits.admit('14155550100', '254700000001'), 1);
  advance(1_000);
  assert.equal(await limits.admit('14155550100', '254700000001'), null);
  assert.equal(await limits.admit('14155550100', '254700000001'), 60);
});

test('the sandbox takes its attempts a minute from all phones; a refused phone does not use them up', async () => {
  const { limits, advance } = limitsAt({ perPhone: 2, perMinute: 3 });
  // Two allowed attempts of one phone use two of the sandbox's three; its eight refused ones use none.
  for (let i = 0; i < 10; i++) await limits.admit('14155550100', '254700000009');
  assert.equal(await limits.admit('14155550100', '254700000001'), null);
  // The sandbox is out: a fresh phone waits one interval of the sandbox's rate (60 s / 3).
  assert.equal(await limits.admit('14155550100', '254700000002'), 20);
  assert.equal(await limits.admit('14155550199', '254700000002'), null, 'another sandbox number is not held');
  advance(20_000);
  assert.equal(await limits.admit('14155550100', '254700000002'), null);
});

test('waits read as minutes', () => {
  assert.equal(waitInWords(1), 'a minute');
  assert.equal(waitInWords(60), 'a minute');
  assert.equal(waitInWords(61), '2 minutes');
  assert.equal(waitInWords(600), '10 minutes');
});
