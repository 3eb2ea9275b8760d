/**
 * Where sends of a business number book their place in its pace (docs/adr/0020-shared-send-pacing.md). On
 * one node the book is kept in memory; when several nodes share PostgreSQL it is one row per number there,
 * so every node draws from the same budget and the network sees one pace, not one per node.
 */

/** How one number is paced: its spacing, how many sends may go at once, how far ahead a send may book. */
export interface SlotRequest {
  /** Milliseconds between sends at the number's sustained rate. */
  intervalMs: number;
  /** Sends a rested number may make at once (at least 1). */
  burst: number;
  /** The latest a booked slot may start, in milliseconds from now; later is refused and nothing is booked. */
  horizonMs: number;
}

export interface SendSlots {
  /**
   * Books the next slot of the number `key` (a phone-number id). Resolves how long to wait before sending:
   * at most `horizonMs` when booked; more than `horizonMs` when refused, and then it is how long until a
   * slot would have been free.
   */
  book(key: string, request: SlotRequest): number | Promise<number>;
}
