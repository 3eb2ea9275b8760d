/**
 * The book of send slots of a single node (src/domain/ports/send-slots.ts), in memory: a number's next free
 * slot as one time, moved one interval forward per booked send (the generic cell rate algorithm, as
 * src/lib/gcra.ts, with each number's own interval). A restart forgets it, which only lets a send go earlier.
 */
import type { SendSlots, SlotRequest } from '../domain/ports/send-slots.ts';

/** Numbers remembered; past it, numbers whose pace is rested (no information) are forgotten. */
const MAX_NUMBERS = 10_000;

export function memorySendSlots(clock: () => number = () => performance.now()): SendSlots {
  /** Per number: when its bucket would be empty again (the theoretical arrival time of its next send). */
  const next = new Map<string, number>();
  const forgetRested = (now: number) => {
    for (const [key, tat] of next) if (tat <= now) next.delete(key);
  };
  return {
    book(key: string, { intervalMs, burst, horizonMs }: SlotRequest): number {
      const now = clock();
      const stored = next.get(key);
      const tat = stored === undefined ? now : Math.max(stored, now);
      const wait = tat - Math.max(0, burst - 1) * intervalMs - now;
      if (wait > horizonMs) return wait;
      if (stored === undefined && next.size >= MAX_NUMBERS) forgetRested(now);
      next.set(key, tat + intervalMs);
      return Math.max(wait, 0);
    },
  };
}
