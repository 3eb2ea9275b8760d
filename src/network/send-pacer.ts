/**
 * Paces sends to the network per business number (docs/adr/0010, docs/adr/0020), so the gateway itself
 * stays under the number's throughput tier (Meta: 80 messages/s by default, up to 1,000; error 130429
 * beyond it) instead of provoking it. A send waits for its slot; one that would wait longer than allowed is
 * refused before anything is sent, so its claim can be released and the client told when to retry.
 *
 * Where the slots are booked decides the shape of the pace:
 * - on one node (memory), the bucket holds half a second of sends at the full tier: the network's own
 *   bucket (one second) always has room for the small clock differences between the two;
 * - when nodes share the book (PostgreSQL), sends leave from several machines by several paths, so the
 *   pace is a steady spacing with no burst, at SHARED_SHARE of the tier: the margin absorbs the jitter
 *   between a node's timer and the network's clock, and no one-second window sees more than the tier.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { NetworkFailure, NumberCredentials, SendOptions } from '../domain/ports/network.ts';
import type { SendSlots, SlotRequest } from '../domain/ports/send-slots.ts';
import { memorySendSlots } from './memory-send-slots.ts';

export interface PacingOptions {
  /** Sends per second of a number whose tier was not set; 0 = no pacing at all. */
  maxSendsPerSecond: number;
  /** The longest an interactive send may wait for its slot. */
  maxWaitMs: number;
  /** Where slots are booked (default: in this process). */
  slots?: SendSlots;
  /** True when `slots` is shared by several nodes. */
  shared?: boolean;
}

/** The share of a number's tier that nodes sharing one book pace it to. */
export const SHARED_SHARE = 0.94;
/** How far ahead a bulk send may book: interactive sends then never wait behind more than this of bulk. */
export const BULK_HORIZON_MS = 250;

export class SendPacer {
  readonly #options: PacingOptions;
  readonly #slots: SendSlots | null;

  constructor(options: PacingOptions) {
    this.#options = options;
    this.#slots = options.maxSendsPerSecond > 0 ? (options.slots ?? memorySendSlots()) : null;
  }

  /** How the number of `credentials` is paced: its rate (sends per second) and its booking. */
  #pace(credentials: NumberCredentials, horizonMs: number): { rate: number; request: SlotRequest } {
    const tier = credentials.maxSendsPerSecond ?? this.#options.maxSendsPerSecond;
    const rate = this.#options.shared ? tier * SHARED_SHARE : tier;
    const burst = this.#options.shared ? 1 : Math.max(1, Math.floor(tier / 2));
    return { rate, request: { intervalMs: 1000 / rate, burst, horizonMs } };
  }

  /**
   * Waits for the number's next slot. Returns a failure (nothing sent) when that would take longer than
   * allowed: the bound for its priority, or `budgetMs`, whichever is shorter.
   */
  async admit(
    credentials: NumberCredentials,
    budgetMs = Number.POSITIVE_INFINITY,
    priority: SendOptions['priority'] = 'interactive',
  ): Promise<NetworkFailure | undefined> {
    if (!this.#slots) return undefined;
    const allowed =
      priority === 'bulk' ? Math.min(BULK_HORIZON_MS, this.#options.maxWaitMs) : this.#options.maxWaitMs;
    const bound = Math.min(allowed, budgetMs);
    const { rate, request } = this.#pace(credentials, bound);
    const wait = await this.#slots.book(credentials.phoneNumberId, request);
    if (wait > bound) return pacingFailure(rate, wait, bound);
    if (wait > 0) await sleep(wait);
    return undefined;
  }
}

function pacingFailure(rate: number, waitMs: number, boundMs: number): NetworkFailure {
  const perSecond = Number.isInteger(rate) ? String(rate) : rate.toFixed(1);
  return {
    kind: 'transient',
    cause: 'pacing',
    code: 0,
    httpStatus: 0,
    title: 'send rate of this number',
    details: `sends from this number are paced to ${perSecond} per second and this one would have waited ${(waitMs / 1000).toFixed(1)} s, more than the ${(boundMs / 1000).toFixed(1)} s allowed`,
    retryAfterMs: waitMs,
    throttled: true,
  };
}
