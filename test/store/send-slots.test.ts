/**
 * The book of send slots (src/domain/ports/send-slots.ts): in memory for one node
 * (src/network/memory-send-slots.ts) and in PostgreSQL for several (src/store/send-slots-repo.ts, two
 * connection pools standing for two nodes). Waits are relative to the moment each booking was made, so the
 * assertions allow for the time the bookings themselves took, measured, never guessed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SendSlots } from '../../src/domain/ports/send-slots.ts';
import { memorySendSlots } from '../../src/network/memory-send-slots.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { postgresSendSlots } from '../../src/store/send-slots-repo.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';

const INTERVAL = 10;

/** Books `count` slots of `key` at once, spread over the books given (nodes); returns waits and elapsed ms. */
async function bookAll(books: SendSlots[], key: string, count: number, horizonMs: number, burst = 1) {
  const started = performance.now();
  const waits = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      books[i % books.length]!.book(key, { intervalMs: INTERVAL, burst, horizonMs }),
    ),
  );
  return { waits: waits.sort((a, b) => a - b), elapsed: performance.now() - started };
}

function bookContract(name: string, books: () => SendSlots[]) {
  test(`${name}: parallel sends of one number get slots one interval apart`, async () => {
    const { waits, elapsed } = await bookAll(books(), 'spaced', 60, 10_000);
    assert.equal(waits[0], 0, 'a rested number sends at once');
    const last = waits.at(-1)!;
    // 59 intervals after the first slot, less the time that passed between the first and last booking.
    assert.ok(last <= 59 * INTERVAL + 1e-6, `last wait ${last} ms`);
    assert.ok(last >= 59 * INTERVAL - elapsed, `last wait ${last} ms after ${elapsed} ms of booking`);
  });

  test(`${name}: a slot beyond the horizon is refused and books nothing`, async () => {
    const { waits, elapsed } = await bookAll(books(), 'bounded', 80, 200);
    const booked = waits.filter((w) => w <= 200);
    const refused = waits.filter((w) => w > 200);
    // Slots 0..20 fit within 200 ms; time passing while booking frees at most one more per interval.
    assert.ok(booked.length >= 21, `${booked.length} booked`);
    assert.ok(
      booked.length <= 21 + Math.ceil(elapsed / INTERVAL),
      `${booked.length} booked in ${elapsed} ms`,
    );
    assert.equal(booked.length + refused.length, 80);
    // Refusals booked nothing: the next slot is still right after the booked ones.
    const next = await books()[0]!.book('bounded', { intervalMs: INTERVAL, burst: 1, horizonMs: 10_000 });
    assert.ok(next <= booked.length * INTERVAL, `next slot after ${next} ms`);
  });

  test(`${name}: a rested number may send its burst at once; numbers do not share a pace`, async () => {
    const burst = await bookAll(books(), 'bursty', 5, 0, 5);
    assert.deepEqual(burst.waits, [0, 0, 0, 0, 0]);
    const other = await books()[0]!.book('another', { intervalMs: INTERVAL, burst: 1, horizonMs: 0 });
    assert.equal(other, 0);
  });
}

describe('send slots in memory', () => {
  const book = memorySendSlots();
  bookContract('memory', () => [book]);
});

describe('send slots in PostgreSQL, two nodes', async () => {
  const skip = await postgresSkipReason();
  let schema: PostgresSchema;
  let stores: Store[] = [];
  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    stores = [openStore(schema.url, { poolSize: 4 }), openStore(schema.url, { poolSize: 4 })];
    await migrateToLatest(stores[0]!);
  });
  after(async () => {
    if (skip) return;
    await Promise.all(stores.map((s) => s.close()));
    await schema.drop();
  });
  if (skip) {
    test('skipped', { skip }, () => {});
    return;
  }
  bookContract('postgres', () => stores.map((s) => postgresSendSlots(s.db)));
});

describe('the database clock as a node sees it', () => {
  test('the offset is learnt from the answers, bounded by the fastest; a clock that was set starts afresh', async () => {
    const { DatabaseClock } = await import('../../src/store/send-slots-repo.ts');
    const clock = new DatabaseClock();
    // The database reads 10,000 when this node reads between 4,990 and 5,040: offset within [4,960, 5,010].
    clock.learn(10_000, 4_990, 5_040);
    assert.equal(clock.localTimeOf(10_000), 5_040);
    // A faster answer narrows it: offset within [4,999, 5,001].
    clock.learn(20_000, 14_999, 15_001);
    assert.equal(clock.localTimeOf(20_000), 15_001);
    // A slow answer (a busy node) changes nothing.
    clock.learn(30_000, 24_990, 25_100);
    assert.equal(clock.localTimeOf(30_000), 25_001);
    // This node's clock was set back an hour: the old bounds contradict the answer, so they go.
    clock.learn(40_000, 35_000 - 3_600_000 - 1, 35_000 - 3_600_000 + 1);
    assert.equal(clock.localTimeOf(40_000), 35_000 - 3_600_000 + 1);
  });
});
