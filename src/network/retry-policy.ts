/**
 * Retries of network calls, limited to what is safe to repeat (docs/adr/0010): only failures where the
 * network provably took nothing (the connection never opened, a Graph error saying "not now", a
 * throttling answer), a few times with exponential backoff and jitter, within a total time budget.
 * An unknown outcome (a timeout after the request was sent, a connection lost mid-request, a 5xx that is
 * not a Graph error) is never repeated: the first request may have been taken, and a message would be
 * sent twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { NetworkFailure } from '../domain/ports/network.ts';

export interface RetryPolicy {
  /** Tries in all, the first included (1 = never retry). */
  attempts: number;
  /** No retry starts later than this after the first try started. */
  budgetMs: number;
  /** Backoff before the second try (doubled before each further one), before jitter. */
  baseDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, budgetMs: 2_000, baseDelayMs: 250 };

/**
 * Limits that refill far slower than a request can wait: app-level call limits (4), WABA limits (80007),
 * the pair limit (131056, about 6 s per message). Retrying within the budget would only add load.
 */
const SLOW_TO_CLEAR = new Set([4, 80007, 131056]);

export function safeToRetry(failure: NetworkFailure): boolean {
  if (failure.kind !== 'transient') return false;
  // The gateway's own pacing already waited as long as it allows.
  if (failure.cause === 'pacing') return false;
  return !SLOW_TO_CLEAR.has(failure.code);
}

/**
 * The backoff before try `next` (2, 3, ...): "equal jitter", half fixed and half random, so tries of
 * concurrent requests spread out yet each waits at least half the nominal delay. A Retry-After from the
 * network is honoured when longer.
 */
export function backoffMs(policy: RetryPolicy, next: number, failure: NetworkFailure): number {
  const nominal = policy.baseDelayMs * 2 ** (next - 2);
  const jittered = nominal / 2 + Math.random() * (nominal / 2);
  return Math.max(jittered, failure.retryAfterMs ?? 0);
}

type Outcome = { ok: true } | { ok: false; failure: NetworkFailure };

/**
 * Runs `attempt` until it succeeds, fails in a way that is not safe to retry, or the policy runs out.
 * `attempt` receives the time left in the budget (for a pacer that must not wait past it); the failure
 * returned carries how many tries were made.
 */
export async function withRetries<R extends Outcome>(
  policy: RetryPolicy,
  attempt: (remainingMs: number, tryNumber: number) => Promise<R>,
): Promise<R> {
  const started = performance.now();
  let result = await attempt(policy.budgetMs, 1);
  for (let next = 2; !result.ok; next++) {
    const failure = (result as { failure: NetworkFailure }).failure;
    if (next > policy.attempts || !safeToRetry(failure)) {
      if (next > 2) failure.attempts = next - 1;
      return result;
    }
    const delay = backoffMs(policy, next, failure);
    const elapsed = performance.now() - started;
    if (elapsed + delay > policy.budgetMs) {
      if (next > 2) failure.attempts = next - 1;
      return result;
    }
    await sleep(delay);
    const retried = await attempt(policy.budgetMs - (performance.now() - started), next);
    // A retry the pacer refused sent nothing: the network's own answer says more.
    if (!retried.ok && (retried as { failure: NetworkFailure }).failure.cause === 'pacing') {
      failure.attempts = next - 1;
      return result;
    }
    result = retried;
  }
  return result;
}
