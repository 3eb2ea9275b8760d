/**
 * What the customer portal (src/portal/) needs from the store for its own concerns: its users, their
 * sessions (found by the SHA-256 of the cookie token) and the sign-in attempts that lock an email out.
 * Everything else a page shows comes through the domain's other ports, scoped by account.
 */

import type { Role } from '../roles.ts';
import type { Account } from './accounts.ts';

export interface PortalUser {
  id: string;
  accountId: string;
  /** Lower-cased; unique across the gateway. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (src/portal/auth/passwords.ts). */
  passwordHash: string;
  createdAt: number;
}

export interface NewSession {
  /** SHA-256 of the cookie token: the token itself is never stored. */
  tokenHash: string;
  userId: string;
  accountId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

/** What every signed-in page needs: the session, its user's email and the account. */
export interface SessionContext {
  tokenHash: string;
  userId: string;
  email: string;
  accountId: string;
  accountName: string;
  csrfToken: string;
  lastSeenAt: number;
  /** What the user may open (src/domain/roles.ts). */
  role: Role;
  /** The IANA time zone the user chose to read times in; null: their browser's. */
  timeZone: string | null;
  /**
   * Unread messages in the account's open conversations, for the navigation's Inbox link: set by the
   * portal for members who may open the inbox, absent otherwise.
   */
  inboxUnread?: number;
}

/** When attempts lock an email out (src/portal/auth/lockout.ts holds the figures). */
export interface AttemptPolicy {
  maxFailures: number;
  windowMs: number;
  lockoutMs: number;
}

export interface AttemptCount {
  /** This attempt's number in the window; past `maxFailures` it is refused unchecked. */
  attempt: number;
  /** When the lockout ends (epoch ms), 0 when none has started. */
  lockedUntil: number;
}

export interface PortalStore {
  findUserByEmail(email: string): Promise<PortalUser | undefined>;
  /**
   * A new account and its first portal user, together: a taken email leaves no account behind. Null when
   * the email is taken.
   */
  signUp(
    input: { email: string; passwordHash: string; businessName: string },
    now: number,
  ): Promise<{ user: PortalUser; account: Account } | null>;
  createSession(session: NewSession): Promise<void>;
  findLiveSession(tokenHash: string, now: number): Promise<SessionContext | undefined>;
  touchSession(tokenHash: string, now: number, idleMs: number): Promise<void>;
  /** The time zone the user reads times in (an IANA name), or null for their browser's. */
  setTimeZone(userId: string, timeZone: string | null): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Counts one sign-in attempt for the email before its password is checked (see the store for how). */
  countAttempt(email: string, now: number, policy: AttemptPolicy): Promise<AttemptCount>;
  /** A successful sign-in starts the count afresh. */
  clearFailures(email: string): Promise<void>;
  /** The account's portal users, first member first. */
  listMembers(accountId: string): Promise<Member[]>;
  /** Gives the account's user another role; false when it has no such user. */
  setRole(accountId: string, userId: string, role: Role): Promise<boolean>;
  /** Removes the account's user with every session of theirs; false when it has no such user. */
  removeMember(accountId: string, userId: string): Promise<boolean>;
}

/** A portal user of an account, as its member list shows them. */
export interface Member {
  id: string;
  email: string;
  createdAt: number;
  /** Null until they sign in (or from before sign-ins were recorded). */
  lastSignInAt: number | null;
  role: Role;
}
