/**
 * Limits on `join <code>` attempts on the sandbox number (docs/sandbox.md). A hit tells the sender which
 * business the code belongs to and binds them to it, so codes must not be guessed: each phone may try a
 * few codes at once and then one a minute, and the sandbox as a whole takes a bounded number of attempts a
 * minute from every phone together (a guesser with many phones). Every attempt counts, right or wrong:
 * the limit is decided before the code is looked up, so a refusal says nothing about the code.
 *
 * Token buckets (GCRA, docs/adr/0011-rate-limits.md): in PostgreSQL when nodes share it, so the limits hold
 * across nodes; in memory for the one SQLite process.
 */
import type { RateLimiter, RateLimitPolicy } from './rate-limit.ts';

export interface JoinLimitSettings {
  /** Attempts one phone may make at once; it regains one a minute. */
  perPhone: number;
  /** Attempts the sandbox takes a minute from all phones together, and at once. */
  perMinute: number;
}

export function joinLimitPolicies(settings: JoinLimitSettings): {
  phone: RateLimitPolicy;
  sandbox: RateLimitPolicy;
} {
  return {
    phone: { perSecond: 1 / 60, burst: settings.perPhone },
    sandbox: { perSecond: settings.perMinute / 60, burst: settings.perMinute },
  };
}

export interface JoinLimits {
  /** Counts one join attempt of `user` on `sandbox`: null when it may go on, else the seconds to wait. */
  admit(sandbox: string, user: string): Promise<number | null>;
}

export function joinLimits(limiters: { phone: RateLimiter; sandbox: RateLimiter }): JoinLimits {
  return {
    async admit(sandbox, user) {
      const phone = await limiters.phone.take(`join:${sandbox}:${user}`);
      // A phone over its own limit does not use up the sandbox's: one phone cannot lock everyone out.
      if (!phone.allowed) return phone.retryAfterSeconds;
      const everyone = await limiters.sandbox.take(`join:${sandbox}`);
      return everyone.allowed ? null : everyone.retryAfterSeconds;
    },
  };
}

/** "a minute", "3 minutes": how a person reads a wait. */
export function waitInWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}
