/**
 * Paces sends to the network per business number (docs/adr/0010), so the gateway itself stays under the
 * network's throughput limit (Meta: 80 messages/s per number by default, error 130429 beyond it) instead
 * of provoking it. A send waits for its slot; one that would wait longer than the bound is refused before
 * anything is sent, so its claim can be released and the client told when to retry.
 *
 * The bucket holds half a second of sends: the network's own bucket (one second) then always has room
 * for the small clock differences between the two.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { NetworkFailure } from '../domain/ports/network.ts';
import { Gcra } from '../lib/gcra.ts';

export interface PacingOptions {
  /** Sends per second per business number; 0 = no pacing. */
  maxSendsPerSecond: number;
  /** The longest a send may wait for its slot. */
  maxWaitMs: number;
}

export class SendPacer {
  readonly #slots: Gcra | null;
  readonly #options: PacingOptions;

  constructor(options: PacingOptions) {
    this.#options = options;
    const rate = options.maxSendsPerSecond;
    this.#slots = rate > 0 ? new Gcra(1000 / rate, Math.max(1, Math.floor(rate / 2))) : null;
  }

  /**
   * Waits for this number's next slot. Returns a failure (nothing sent) when that would take longer than
   * the bound or than `budgetMs`, whichever is shorter.
   */
  async admit(
    phoneNumberId: string,
    budgetMs = Number.POSITIVE_INFINITY,
  ): Promise<NetworkFailure | undefined> {
    if (!this.#slots) return undefined;
    const bound = Math.min(this.#options.maxWaitMs, budgetMs);
    const wait = this.#slots.reserve(phoneNumberId, bound);
    if (wait > bound) {
      const rate = this.#options.maxSendsPerSecond;
      return {
        kind: 'transient',
        cause: 'pacing',
        code: 0,
        httpStatus: 0,
        title: 'send rate of this number',
        details: `sends from this number are paced to ${rate} per second and this one would have waited ${(wait / 1000).toFixed(1)} s, more than the ${(bound / 1000).toFixed(1)} s allowed`,
        retryAfterMs: wait,
        throttled: true,
      };
    }
    if (wait > 0) await sleep(wait);
    return undefined;
  }
}
