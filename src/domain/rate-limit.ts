/**
 * Requests per API key (docs/adr/0011-rate-limits.md): a token bucket in its GCRA form. A key may send
 * `burst` requests at once and `perSecond` on average; each request moves the key's "theoretical arrival
 * time" (TAT) one interval (1000 / perSecond ms) forward, and a request that would push it more than
 * `burst` intervals ahead of now is refused. One number per key, no window edges where twice the limit
 * gets through, and the same arithmetic in memory (one process on SQLite) and in one PostgreSQL
 * statement (several nodes).
 */
import { Gcra } from '../lib/gcra.ts';

export interface RateLimitPolicy {
  perSecond: number;
  /** How many requests an idle key may send at once; the bucket's size. */
  burst: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The bucket's size: `RateLimit-Limit`. */
  limit: number;
  /** Requests the key may still send at once: `RateLimit-Remaining`. */
  remaining: number;
  /** Whole seconds until the bucket is full again: `RateLimit-Reset`. */
  resetSeconds: number;
  /** Whole seconds until a request would be allowed: `Retry-After` (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  readonly policy: RateLimitPolicy;
  /** Counts one request of the key and says whether it may go on. */
  take(keyId: string): RateLimitDecision | Promise<RateLimitDecision>;
}

/** Floating-point slack: 1000/3 ms intervals must not refuse the third of three allowed requests. */
const EPSILON_MS = 1e-6;

export function intervalMs(policy: RateLimitPolicy): number {
  return 1000 / policy.perSecond;
}

/** How far ahead of now the TAT may be after an allowed request. */
export function capacityMs(policy: RateLimitPolicy): number {
  return policy.burst * intervalMs(policy) + EPSILON_MS;
}

/**
 * The answer for a request at `now`: `tat` is the key's TAT after the request when it was allowed, or its
 * stored TAT when it was refused (all in epoch milliseconds, from one clock).
 */
export function describeDecision(
  policy: RateLimitPolicy,
  now: number,
  tat: number,
  allowed: boolean,
): RateLimitDecision {
  const interval = intervalMs(policy);
  const ahead = Math.max(0, tat - now);
  const resetSeconds = Math.ceil(ahead / 1000);
  if (allowed) {
    const remaining = Math.floor((policy.burst * interval - ahead) / interval + EPSILON_MS);
    return {
      allowed,
      limit: policy.burst,
      remaining: Math.max(0, remaining),
      resetSeconds,
      retryAfterSeconds: 0,
    };
  }
  // The next request fits once the TAT is no more than `burst` intervals ahead after adding one.
  const waitMs = ahead + interval - policy.burst * interval;
  return {
    allowed,
    limit: policy.burst,
    remaining: 0,
    resetSeconds,
    retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
  };
}

/** Keys remembered by one process; past it, rested keys (full buckets, no information) are forgotten first. */
const MAX_KEYS = 100_000;

/** In memory, the answer is at hand: no promise. */
export interface MemoryRateLimiter extends RateLimiter {
  take(keyId: string): RateLimitDecision;
}

/** The limiter of a single process (SQLite): a Map lookup per request. */
export function memoryRateLimiter(
  policy: RateLimitPolicy,
  clock: () => number = Date.now,
): MemoryRateLimiter {
  const gcra = new Gcra(intervalMs(policy), policy.burst, MAX_KEYS);
  return {
    policy,
    take(keyId) {
      const now = clock();
      const allowed = gcra.reserve(keyId, EPSILON_MS, now) <= EPSILON_MS;
      return describeDecision(policy, now, gcra.tatOf(keyId) ?? now, allowed);
    },
  };
}
