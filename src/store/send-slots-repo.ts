/**
 * The book of send slots shared by the nodes of one PostgreSQL database (docs/adr/0020-shared-send-pacing.md):
 * each number's next free slot is one row of `send_slots`, moved forward by one atomic upsert per send. The
 * row lock orders concurrent sends of one number across every node, and the database's clock is the one
 * clock the slots are counted in. A refused send costs a second, read-only statement (to say how long
 * until a slot).
 *
 * When to send is a time on the database's clock, read once the row lock is held. Turning it into a wait
 * here must not count the time the answer took to come back, which varies with every commit and with how
 * busy this node is: a send would leave late by as much, unevenly, and crowd the next. So each node keeps
 * the offset between the database's clock and its own (DatabaseClock), learnt from the answers themselves.
 */
import { type Kysely, sql } from 'kysely';
import type { SendSlots, SlotRequest } from '../domain/ports/send-slots.ts';
import type { Database } from './schema.ts';

/**
 * Milliseconds since the epoch when evaluated: after the row lock is taken, not when the statement began
 * (concurrent sends of one number queue on that lock, and a time read before the wait would be stale).
 */
const NOW_MS = sql<number>`(extract(epoch from clock_timestamp())::float8 * 1000)`;

/**
 * The database clock minus this node's, within the bounds every answer gives: the database read its clock
 * between the call and the answer, so the offset lies in [dbNow − answeredAt, dbNow − askedAt]. The
 * tightest lower bound seen is the estimate: it is off by at most the fastest answer's return time.
 */
export class DatabaseClock {
  #low = Number.NEGATIVE_INFINITY;
  #high = Number.POSITIVE_INFINITY;

  learn(dbNow: number, askedAt: number, answeredAt: number): void {
    const low = dbNow - answeredAt;
    const high = dbNow - askedAt;
    // Bounds that contradict the ones kept mean a clock was set: start again from this answer.
    if (low > this.#high || high < this.#low) {
      this.#low = low;
      this.#high = high;
      return;
    }
    this.#low = Math.max(this.#low, low);
    this.#high = Math.min(this.#high, high);
  }

  /** The local time, in epoch milliseconds, at which the database's clock reads `dbTime`. */
  localTimeOf(dbTime: number): number {
    return dbTime - this.#low;
  }
}

export function postgresSendSlots(db: Kysely<Database>, now: () => number = Date.now): SendSlots {
  const clock = new DatabaseClock();
  return {
    async book(key: string, { intervalMs, burst, horizonMs }: SlotRequest): Promise<number> {
      const interval = sql`${intervalMs}::float8`;
      // How far the next slot may start before now: a rested number may send `burst` at once.
      const tolerance = sql`${Math.max(0, burst - 1) * intervalMs}::float8`;
      const start = sql`greatest(s.tat, ${NOW_MS})`;
      const askedAt = now();
      const booked = await sql<{ at: number; now: number }>`
        insert into send_slots as s (phone_number_id, tat) values (${key}, ${NOW_MS} + ${interval})
        on conflict (phone_number_id) do update set tat = ${start} + ${interval}
          where ${start} - ${tolerance} - ${NOW_MS} <= ${horizonMs}::float8
        returning s.tat - ${interval} - ${tolerance} as at, ${NOW_MS} as now`.execute(db);
      const row = booked.rows[0];
      if (row) {
        clock.learn(row.now, askedAt, now());
        return Math.max(0, Math.min(horizonMs, clock.localTimeOf(row.at) - now()));
      }
      const current = await sql<{ wait: number }>`
        select tat - ${tolerance} - ${NOW_MS} as wait from send_slots where phone_number_id = ${key}`.execute(
        db,
      );
      // The row exists (the upsert found it full); should it have gone since, a retry will find room.
      return Math.max(current.rows[0]?.wait ?? 0, horizonMs + 1);
    },
  };
}
