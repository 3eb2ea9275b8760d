/**
 * How the pacer books sends (src/network/send-pacer.ts, docs/adr/0020-shared-send-pacing.md): each number
 * at its own tier, a steady spacing below the tier when nodes share the book, and bulk sends that can never
 * fill a number's pace ahead of interactive ones. The book's clock is frozen, so every wait is exact.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NumberCredentials } from '../../src/domain/ports/network.ts';
import type { SendSlots, SlotRequest } from '../../src/domain/ports/send-slots.ts';
import { memorySendSlots } from '../../src/network/memory-send-slots.ts';
import { BULK_HORIZON_MS, SendPacer, SHARED_SHARE } from '../../src/network/send-pacer.ts';

/** A book in memory on a frozen clock, recording every booking and its answer. */
function recordingSlots() {
  const inner = memorySendSlots(() => 0);
  const seen: { request: SlotRequest; wait: number }[] = [];
  const slots: SendSlots = {
    book(key, request) {
      const wait = inner.book(key, request) as number;
      seen.push({ request, wait });
      return wait;
    },
  };
  return { slots, seen };
}

const number = (maxSendsPerSecond?: number): NumberCredentials => ({
  phoneNumberId: '106540352242922',
  accessToken: 'token',
  ...(maxSendsPerSecond ? { maxSendsPerSecond } : {}),
});

test('one node: the full tier with half a second of burst; a number set to its own tier is paced at it', async () => {
  const { slots, seen } = recordingSlots();
  const pacer = new SendPacer({ maxSendsPerSecond: 80, maxWaitMs: 2000, slots });
  assert.equal(await pacer.admit(number()), undefined);
  assert.deepEqual(seen[0]!.request, { intervalMs: 1000 / 80, burst: 40, horizonMs: 2000 });
  assert.equal(await pacer.admit(number(1000)), undefined);
  assert.deepEqual(seen[1]!.request, { intervalMs: 1, burst: 500, horizonMs: 2000 });
});

test('nodes sharing the book: a steady spacing at a share of the tier, no burst', async () => {
  const { slots, seen } = recordingSlots();
  const pacer = new SendPacer({ maxSendsPerSecond: 80, maxWaitMs: 2000, slots, shared: true });
  assert.equal(await pacer.admit(number(50)), undefined);
  assert.deepEqual(seen[0]!.request, { intervalMs: 1000 / (50 * SHARED_SHARE), burst: 1, horizonMs: 2000 });
});

test('bulk sends book only close to now, so an interactive send never waits behind more than that', async () => {
  const { slots, seen } = recordingSlots();
  const pacer = new SendPacer({ maxSendsPerSecond: 100, maxWaitMs: 2000, slots, shared: true });
  const interval = 1000 / (100 * SHARED_SHARE);
  const bulk = await Promise.all(Array.from({ length: 100 }, () => pacer.admit(number(), undefined, 'bulk')));
  const admitted = bulk.filter((refusal) => refusal === undefined).length;
  assert.equal(
    admitted,
    Math.floor(BULK_HORIZON_MS / interval) + 1,
    'bulk filled the pace up to its horizon',
  );
  for (const refusal of bulk.filter((r) => r !== undefined)) {
    assert.equal(refusal.cause, 'pacing');
    assert.ok(refusal.retryAfterMs! > BULK_HORIZON_MS);
  }
  assert.equal(await pacer.admit(number()), undefined, 'the interactive send is admitted');
  const interactive = seen.at(-1)!;
  assert.equal(interactive.request.horizonMs, 2000);
  assert.ok(interactive.wait <= BULK_HORIZON_MS + interval, `waited ${interactive.wait} ms behind bulk`);
});

test('no pacing when the default rate is 0: nothing is booked', async () => {
  const { slots, seen } = recordingSlots();
  const pacer = new SendPacer({ maxSendsPerSecond: 0, maxWaitMs: 2000, slots });
  assert.equal(await pacer.admit(number(80)), undefined);
  assert.equal(seen.length, 0);
});
