/** Rate limiters: counted in PostgreSQL when nodes share it (any node may take the request), in memory on SQLite. */
import { memoryRateLimiter, type RateLimiter, type RateLimitPolicy } from '../../domain/rate-limit.ts';
import type { Store } from '../../store/connect.ts';
import { postgresRateLimiter } from '../../store/rate-limits-repo.ts';

export type LimiterFactory = (policy: RateLimitPolicy) => RateLimiter;

export function rateLimiters(store: Store): LimiterFactory {
  return (policy) =>
    store.dialect === 'postgres' ? postgresRateLimiter(store.db, policy) : memoryRateLimiter(policy);
}
