/**
 * One-time links into the portal (docs/portal.md#one-time-links), shared by the first start, the CLI and
 * the portal's own page. An account made outside the portal has no portal user; a link lets one person
 * choose a password for it (and an email, when the link names none). A link is a credential: its token is
 * shown once, kept only as a hash, works once, and expires. Opening it changes nothing (mail scanners open
 * links); setting the password uses it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { GatewayError } from './errors.ts';
import type { AccountsStore } from './ports/accounts.ts';
import type { LiveInvite, PortalInvitesStore, RedeemOutcome } from './ports/portal-invites.ts';
import type { Role } from './roles.ts';

/** How long a link works: long enough to reach someone by email over a weekend. */
export const INVITE_TTL_MS = 72 * 3_600_000;
/** The longest email accepted, in characters (RFC 5321's limit on a path). */
export const EMAIL_MAX_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (raw: string) => raw.trim().toLowerCase();

/** Whether `email` (normalized) is an address the portal accepts. */
export function isEmail(email: string): boolean {
  return EMAIL.test(email) && email.length <= EMAIL_MAX_LENGTH;
}

/** The email a link is for, normalized; null for none. A malformed one is refused, naming `email`. */
export function inviteEmailOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const email = normalizeEmail(raw);
  if (!isEmail(email))
    throw new GatewayError(
      'invalid_request',
      `\`email\` must be an email address like name@example.com, at most ${EMAIL_MAX_LENGTH} characters`,
      { field: 'email' },
    );
  return email;
}

/**
 * Refuses, naming `email`, an email that a portal user of another account than `accountId` has (any
 * account, for one not made yet): an email signs in to one account.
 */
export async function checkEmailFree(
  invites: Pick<PortalInvitesStore, 'accountOfEmail'>,
  email: string,
  accountId: string | undefined,
): Promise<void> {
  const owner = await invites.accountOfEmail(email);
  if (owner !== undefined && owner !== accountId)
    throw new GatewayError('conflict', 'a portal user of another account has this `email`', {
      field: 'email',
    });
}

/** The token's hash, by which the link is stored and found. */
export function inviteTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedInvite {
  /** Goes in the link; shown once, stored nowhere. */
  token: string;
  expiresAt: number;
}

export interface InviteStores {
  accounts: Pick<AccountsStore, 'findAccount'>;
  invites: Pick<PortalInvitesStore, 'insertInvite' | 'userOfEmail'>;
}

/**
 * A new link into the account's portal. With `memberId`, a password link: it sets that member's
 * password (whose email `email` is) and nothing else, and nothing once they are removed. Without, an
 * invitation: it adds a member with `role` (owner when none), for `email` when given, whoever opens it
 * otherwise. Refused, naming the field, for an unknown account, a malformed email, an email that a user of
 * another account has, or an invitation for an email that a member of this account has.
 */
export async function issuePortalInvite(
  stores: InviteStores,
  input: { accountId: string; email?: string | undefined; role?: Role | undefined; memberId?: string },
  now: number,
): Promise<IssuedInvite> {
  if (!(await stores.accounts.findAccount(input.accountId)))
    throw new GatewayError('not_found', 'no account has this `accountId`', { field: 'accountId' });
  const email = inviteEmailOf(input.email);
  const user = email === null ? undefined : await stores.invites.userOfEmail(email);
  if (user && user.accountId !== input.accountId)
    throw new GatewayError('conflict', 'a portal user of another account has this `email`', {
      field: 'email',
    });
  if (user && user.userId !== input.memberId)
    throw new GatewayError(
      'conflict',
      '`email` is a member of this account already: make them a password link instead',
      { field: 'email' },
    );
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + INVITE_TTL_MS;
  await stores.invites.insertInvite({
    tokenHash: inviteTokenHash(token),
    accountId: input.accountId,
    email,
    createdAt: now,
    expiresAt,
    role: input.memberId ? null : (input.role ?? null),
    userId: input.memberId ?? null,
  });
  return { token, expiresAt };
}

/**
 * The operator's link for `email` (`users invite`): the password link of the account's member who has it,
 * or else an invitation of a new owner.
 */
export async function operatorPortalLink(
  stores: InviteStores,
  input: { accountId: string; email?: string | undefined },
  now: number,
): Promise<IssuedInvite> {
  const email = inviteEmailOf(input.email);
  const user = email === null ? undefined : await stores.invites.userOfEmail(email);
  const memberId = user?.accountId === input.accountId ? user.userId : undefined;
  return issuePortalInvite(stores, { ...input, ...(memberId ? { memberId } : {}) }, now);
}

/** The link behind `token`, while it can be used. */
export function findLiveInvite(
  invites: PortalInvitesStore,
  token: string,
  now: number,
): Promise<LiveInvite | undefined> {
  return invites.findLiveInvite(inviteTokenHash(token), now);
}

/** Uses the link: the account's portal user with this email now has this password. */
export function redeemPortalInvite(
  invites: PortalInvitesStore,
  token: string,
  user: { email: string; passwordHash: string },
  now: number,
): Promise<RedeemOutcome> {
  return invites.redeemInvite(inviteTokenHash(token), user, now);
}
