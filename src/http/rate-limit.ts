/**
 * The per-key rate limit of every /api/v1 route (docs/adr/0011-rate-limits.md). Runs after the API-key
 * check, so only authenticated requests are counted, each against its own key. Every answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a refused request is a 429 in the error
 * envelope with `Retry-After` (set by the error handler from the error).
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import type { RateLimiter } from '../domain/rate-limit.ts';

export function installRateLimit(scope: FastifyInstance, limiter: RateLimiter): void {
  const { perSecond, burst } = limiter.policy;
  scope.addHook('onRequest', async (request, reply) => {
    const decision = await limiter.take(request.apiKeyId);
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new GatewayError(
        'rate_limited',
        `too many requests with this API key: the limit is ${perSecond} requests per second, with bursts of up to ${burst}; retry after ${decision.retryAfterSeconds} s`,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    }
  });
}
