/**
 * The retry schedule of webhook deliveries: delays after the first attempt, e.g. `5s,5m,30m,2h,5h,10h,10h`
 * (svix's schedule: about 28 hours of retries), read from the configuration by src/lib/delay-list.ts. Each
 * delay gets ±10 % jitter, so a receiver that comes back is not hit by every queued delivery in the same
 * second.
 */

export function withJitter(delayMs: number, random = Math.random): number {
  return Math.round(delayMs * (0.9 + random() * 0.2));
}

export interface DeliveryStep {
  status: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: number;
  attemptCount: number;
}

/**
 * What becomes of a delivery after an attempt. Retried: no answer (a connection error, a timeout), 408,
 * 429 and 5xx. Retry-After is honoured when it asks for longer than the schedule, up to the schedule's
 * longest delay: a receiver cannot park a delivery for years (or past what the database can store). Any
 * other answer ends the delivery as failed: the receiver said it will not take it. After the last
 * scheduled retry the delivery is failed.
 */
export function stepAfterAttempt(
  answer: { status: number | null; retryAfter: string | null },
  attemptCount: number,
  finishedAt: number,
  scheduleMs: readonly number[],
): DeliveryStep {
  const { status } = answer;
  if (status !== null && status >= 200 && status < 300) {
    return { status: 'succeeded', nextAttemptAt: finishedAt, attemptCount };
  }
  const retryable = status === null || status === 408 || status === 429 || status >= 500;
  if (retryable && attemptCount <= scheduleMs.length) {
    const asked = Math.min(retryAfterMs(answer.retryAfter, finishedAt) ?? 0, Math.max(...scheduleMs));
    const delay = Math.max(withJitter(scheduleMs[attemptCount - 1]!), asked);
    return { status: 'pending', nextAttemptAt: finishedAt + delay, attemptCount };
  }
  return { status: 'failed', nextAttemptAt: finishedAt, attemptCount };
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
