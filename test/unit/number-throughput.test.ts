/** A number's own throughput tier (src/domain/numbers.ts): the rules, before anything is stored. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayError } from '../../src/domain/errors.ts';
import { setNumberThroughput } from '../../src/domain/numbers.ts';

function numbersOf(accountId: string, phone: string) {
  const tiers = new Map<string, number | null>();
  return {
    tiers,
    async setThroughput(account: string, digits: string, perSecond: number | null) {
      if (account !== accountId || digits !== phone) return false;
      tiers.set(digits, perSecond);
      return true;
    },
  };
}

const refusal = (field: string, message: RegExp) => (error: unknown) =>
  error instanceof GatewayError && error.field === field && message.test(error.message);

test('a tier from 1 to 1,000 per second is set on a number of the account, and can be cleared', async () => {
  const numbers = numbersOf('acc_1', '14155550123');
  await setNumberThroughput(numbers, 'acc_1', '+1 415 555 0123', 1000);
  assert.equal(numbers.tiers.get('14155550123'), 1000);
  await setNumberThroughput(numbers, 'acc_1', '+14155550123', null);
  assert.equal(numbers.tiers.get('14155550123'), null);
});

test('a tier out of range, a bad phone or another account’s number is refused, naming the field', async () => {
  const numbers = numbersOf('acc_1', '14155550123');
  for (const bad of [0, 1001, 2.5, Number.NaN]) {
    await assert.rejects(
      setNumberThroughput(numbers, 'acc_1', '+14155550123', bad),
      refusal('maxSendsPerSecond', /whole number from 1 to 1000/),
    );
  }
  await assert.rejects(
    setNumberThroughput(numbers, 'acc_1', 'not a phone', 80),
    refusal('phone', /valid phone/),
  );
  await assert.rejects(
    setNumberThroughput(numbers, 'acc_2', '+14155550123', 80),
    (error: unknown) => error instanceof GatewayError && error.status === 404,
  );
  assert.equal(numbers.tiers.size, 0, 'nothing was stored');
});
