/**
 * The rate limiter of several nodes sharing PostgreSQL (docs/adr/0011-rate-limits.md): each key's TAT is
 * one row of `rate_limits`, moved forward by one atomic upsert per request. The row lock of the upsert
 * orders concurrent requests of one key across every node, and the database's clock is the one clock,
 * so the nodes' clocks need not agree. A refused request costs a second, read-only statement.
 */
import { type Kysely, sql } from 'kysely';
import {
  capacityMs,
  describeDecision,
  intervalMs,
  type RateLimiter,
  type RateLimitPolicy,
} from '../domain/rate-limit.ts';
import type { Database } from './schema.ts';

/** Milliseconds since the epoch at the start of the statement: the same value wherever it appears in it. */
const NOW_MS = sql<number>`(extract(epoch from statement_timestamp())::float8 * 1000)`;

export function postgresRateLimiter(db: Kysely<Database>, policy: RateLimitPolicy): RateLimiter {
  const interval = intervalMs(policy);
  const capacity = capacityMs(policy);
  return {
    policy,
    async take(keyId) {
      const taken = await sql<{ tat: number; now: number }>`
        insert into rate_limits as r (key_id, tat) values (${keyId}, ${NOW_MS} + ${interval}::float8)
        on conflict (key_id) do update set tat = greatest(r.tat, ${NOW_MS}) + ${interval}::float8
          where greatest(r.tat, ${NOW_MS}) + ${interval}::float8 - ${NOW_MS} <= ${capacity}::float8
        returning r.tat, ${NOW_MS} as now`.execute(db);
      const row = taken.rows[0];
      if (row) return describeDecision(policy, row.now, row.tat, true);
      const current = await sql<{ tat: number; now: number }>`
        select tat, ${NOW_MS} as now from rate_limits where key_id = ${keyId}`.execute(db);
      const stored = current.rows[0];
      return describeDecision(policy, stored?.now ?? 0, stored?.tat ?? 0, false);
    },
  };
}
