import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadConfig } from '../../src/config/config.ts';
import { DeliverySlots } from '../../src/events/delivery-slots.ts';

const candidate = (accountId: string, endpointId: string) => ({ accountId, endpointId });

test('a claim plan picks within the caps in all, per account and per endpoint', () => {
  const slots = new DeliverySlots({ total: 5, perAccount: 3, perEndpoint: 2 });
  const plan = slots.planClaim();
  assert.equal(plan.limit, 5);
  const picks = [
    candidate('a', 'a1'),
    candidate('a', 'a1'),
    candidate('a', 'a1'), // a1 is full
    candidate('a', 'a2'),
    candidate('a', 'a2'), // account a is full
    candidate('b', 'b1'),
    candidate('c', 'c1'),
    candidate('c', 'c1'), // all five slots are taken
  ].map((c) => plan.pick(c));
  assert.deepEqual(picks, [true, true, false, true, false, true, true, false]);
});

test('running deliveries fill the slots; full accounts and endpoints are left out of the next claim', () => {
  const slots = new DeliverySlots({ total: 10, perAccount: 3, perEndpoint: 2 });
  slots.take('a', 'a1', null);
  slots.take('a', 'a1', null);
  slots.take('a', 'a2', null);
  slots.take('b', 'b1', null);
  assert.equal(slots.free, 6);
  const plan = slots.planClaim();
  assert.deepEqual(plan.skipAccounts, ['a']);
  assert.deepEqual(plan.skipEndpoints, ['a1']);
  assert.equal(plan.pick(candidate('b', 'b1')), true);
  assert.equal(plan.pick(candidate('b', 'b1')), false, 'b1 has one running and one just picked');
});

test('a failing endpoint gets one slot until an attempt succeeds', () => {
  const slots = new DeliverySlots({ total: 10, perAccount: 10, perEndpoint: 4 });
  slots.take('a', 'a1', Date.now()); // the store says it is failing
  assert.deepEqual(slots.planClaim().skipEndpoints, ['a1']);
  slots.noteOutcome('a1', true);
  assert.deepEqual(slots.planClaim().skipEndpoints, []);
  slots.noteOutcome('a1', false);
  slots.give('a', 'a1');
  const plan = slots.planClaim();
  assert.deepEqual(plan.skipEndpoints, [], 'no attempt running: it may take one');
  assert.equal(plan.pick(candidate('a', 'a1')), true);
  assert.equal(plan.pick(candidate('a', 'a1')), false);
});

test('freeing a slot asks for a claim only where due deliveries were held back', () => {
  const slots = new DeliverySlots({ total: 4, perAccount: 4, perEndpoint: 2 });
  slots.take('a', 'a1', null);
  slots.take('b', 'b1', null);
  const plan = slots.planClaim();
  assert.equal(plan.pick(candidate('a', 'a1')), true);
  assert.equal(plan.pick(candidate('a', 'a1')), false); // a1 held back a due delivery
  assert.equal(slots.give('b', 'b1'), false, 'nothing waited for b1');
  assert.equal(slots.give('a', 'a1'), true, 'a delivery to a1 waits');

  for (const id of ['w', 'x', 'y', 'z']) slots.take(id, id, null);
  assert.equal(slots.free, 0);
  assert.equal(slots.give('x', 'x'), true, 'every slot was taken: anything due may have waited');
});

test("with the default caps, an endpoint that hangs through a burst leaves half of its account's slots to the others", () => {
  const slots = new DeliverySlots(loadConfig({}).webhooks.concurrency);
  const plan = slots.planClaim();
  // A burst of 40 events to the endpoint that hangs, then 5 to another endpoint of the same account.
  const hanging = Array.from({ length: 40 }, () => plan.pick(candidate('a', 'hangs'))).filter(Boolean);
  const other = Array.from({ length: 5 }, () => plan.pick(candidate('a', 'answers'))).filter(Boolean);
  assert.equal(hanging.length, 16);
  assert.equal(other.length, 5, 'the other endpoint starts at once, not after the timeout');
});
