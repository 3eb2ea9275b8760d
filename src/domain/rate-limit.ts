/**
 * Requests per API key (docs/adr/0011-rate-limits.md): a token bucket in its GCRA form. A key may send
 * `burst` requests at once and `perSecond` on average; each request moves the key's "theoretical arrival
 * time" (TAT) one interval (1000 / perSecond ms) forward, and a request that would push it more than
 * `burst` intervals ahead of now is refused. One number per key, no window edges where twice the limit
 * gets through, and the same arithmetic in memory (one process on SQLite) and in one PostgreSQL
 * statement (several nodes).
 */
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

/** Above this many keys, keys whose bucket is full again are forgotten (a full bucket is no entry). */
const PRUNE_ABOVE = 10_000;

/** In memory, the answer is at hand: no promise. */
export interface MemoryRateLimiter extends RateLimiter {
  take(keyId: string): RateLimitDecision;
}

/** The limiter of a single process (SQLite): a Map lookup per request. */
export function memoryRateLimiter(
  policy: RateLimitPolicy,
  clock: () => number = Date.now,
): MemoryRateLimiter {
  const tats = new Map<string, number>();
  const interval = intervalMs(policy);
  const capacity = capacityMs(policy);
  let pruneAbove = PRUNE_ABOVE;
  return {
    policy,
    take(keyId) {
      const now = clock();
      const stored = tats.get(keyId) ?? now;
      const next = Math.max(stored, now) + interval;
      const allowed = next - now <= capacity;
      if (allowed) {
        tats.set(keyId, next);
        if (tats.size > pruneAbove) {
          for (const [key, tat] of tats) if (tat <= now) tats.delete(key);
          pruneAbove = Math.max(PRUNE_ABOVE, 2 * tats.size);
        }
      }
      return describeDecision(policy, now, allowed ? next : stored, allowed);
    },
  };
}
