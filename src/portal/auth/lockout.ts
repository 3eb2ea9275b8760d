/**
 * Sign-in lockout: 5 failed sign-ins for one email within 15 minutes lock that email out for 15 minutes.
 * Counted per email whether or not a user has it (the answer must not tell), in the database so every
 * node behind a load balancer sees the same count.
 *
 * Each attempt is counted before its password is checked, in one atomic statement
 * (src/store/portal-repo.ts, countAttempt): hashing takes tens of milliseconds, and a count read before it
 * and written after would let a burst of parallel guesses all be checked. An attempt past the limit is
 * refused without a password check; a successful one clears the count.
 */
import type { AttemptPolicy, PortalStore } from '../../domain/ports/portal.ts';

export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;

const POLICY: AttemptPolicy = {
  maxFailures: MAX_FAILURES,
  windowMs: FAILURE_WINDOW_MS,
  lockoutMs: LOCKOUT_MS,
};

export type AttemptVerdict =
  /** Refused unchecked: the email is locked until then. */
  | { refusedUntil: number }
  /**
   * The password may be checked; if it is wrong, the email is locked until `lockedIfWrong` (when set), and
   * `nextLocks` says that the next wrong one will lock it (a warning is due).
   */
  | { refusedUntil: undefined; lockedIfWrong: number | undefined; nextLocks: boolean };

/** Counts a sign-in attempt for the email and says whether its password may be checked. */
export async function beginAttempt(
  repo: PortalStore,
  email: string,
  now = Date.now(),
): Promise<AttemptVerdict> {
  const { attempt, lockedUntil } = await repo.countAttempt(email, now, POLICY);
  if (attempt > MAX_FAILURES) return { refusedUntil: lockedUntil };
  return {
    refusedUntil: undefined,
    lockedIfWrong: lockedUntil > now ? lockedUntil : undefined,
    nextLocks: attempt === MAX_FAILURES - 1,
  };
}

export function lockoutMessage(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  return `Too many failed sign-ins for this email: sign-in is locked for ${minutes} more minute${minutes === 1 ? '' : 's'} (until ${new Date(until).toISOString().slice(11, 16)} UTC).`;
}
