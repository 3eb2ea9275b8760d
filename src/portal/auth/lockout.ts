/**
 * Sign-in lockout: 5 failed sign-ins for one email within 15 minutes lock that email out for 15 minutes.
 * Counted per email whether or not a user has it (the answer must not tell), in the database so every
 * node behind a load balancer sees the same count.
 */
import type { PortalRepo } from '../../store/portal-repo.ts';

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;

/** Until when sign-in is refused for this email, if it is. */
export function lockedUntil(repo: PortalRepo, email: string, now = Date.now()): Promise<number | undefined> {
  return repo.lockedUntil(email, now);
}

/** Counts a failure; returns the lockout's end if this failure started one. */
export async function noteFailure(
  repo: PortalRepo,
  email: string,
  now = Date.now(),
): Promise<number | undefined> {
  const failures = await repo.recordFailure(email, now, FAILURE_WINDOW_MS);
  if (failures < MAX_FAILURES) return undefined;
  const until = now + LOCKOUT_MS;
  await repo.lock(email, until);
  return until;
}

export function lockoutMessage(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  return `Too many failed sign-ins for this email: sign-in is locked for ${minutes} more minute${minutes === 1 ? '' : 's'} (until ${new Date(until).toISOString().slice(11, 16)} UTC).`;
}
