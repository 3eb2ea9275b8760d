/**
 * "Forgot your password?" (docs/portal.md, "Forgotten passwords"): anyone may ask for a password link for
 * an email; when a member has it and the gateway has a mail server, the link (the one a member of their
 * account could make for them, team.ts) is mailed to that address, and to no other.
 *
 * - The answer never says whether a member has the email: the request is counted, and answered, the same
 *   way for every email; looking the member up and mailing happen after the answer (sendPasswordLink), so
 *   not even its time tells.
 * - At most RESET_REQUESTS.maxFailures requests per email an hour, counted in the database (the sign-in
 *   lockout's count, under a key of its own), so that nobody can fill a member's mailbox.
 */
import { type InviteStores, issuePortalInvite } from './portal-invites.ts';
import type { AccountsStore } from './ports/accounts.ts';
import type { Mailer } from './ports/mailer.ts';
import type { AttemptPolicy, PortalStore } from './ports/portal.ts';
import { type MailOutcome, mailLink } from './team-mail.ts';

const HOUR_MS = 3_600_000;

/** Three requests per email an hour; the fourth waits for the hour to end. */
export const RESET_REQUESTS: AttemptPolicy = { maxFailures: 3, windowMs: HOUR_MS, lockoutMs: HOUR_MS };

/** The count's key: a space is in no email the portal accepts, so it never meets a sign-in's count. */
const countKey = (email: string) => `password-link ${email}`;

export interface RecoveryDeps {
  portal: Pick<PortalStore, 'findUserByEmail' | 'countAttempt'>;
  accounts: Pick<AccountsStore, 'findAccount'>;
  invites: InviteStores['invites'];
  mailer: Mailer | null;
  /** The portal link of a token (src/lib/portal-links.ts). */
  linkOf(token: string): string;
}

/** Counts a request for `email` (normalized, valid); until when further ones are refused, if they are. */
export async function countPasswordLinkRequest(
  portal: RecoveryDeps['portal'],
  email: string,
  now: number,
): Promise<{ refusedUntil: number | undefined }> {
  const { attempt, lockedUntil } = await portal.countAttempt(countKey(email), now, RESET_REQUESTS);
  return { refusedUntil: attempt > RESET_REQUESTS.maxFailures ? lockedUntil : undefined };
}

/**
 * Mails a password link to the member who has `email`, if one does. `none`: no member has it, or there is
 * no mail server (nothing was made).
 */
export async function sendPasswordLink(
  deps: RecoveryDeps,
  email: string,
  now: number,
): Promise<MailOutcome | { kind: 'none' }> {
  if (!deps.mailer) return { kind: 'none' };
  const member = await deps.portal.findUserByEmail(email);
  if (!member) return { kind: 'none' };
  const account = await deps.accounts.findAccount(member.accountId);
  if (!account) return { kind: 'none' };
  // It sets this member's password and keeps their role; removed, they have no password to set.
  const link = await issuePortalInvite(
    { accounts: deps.accounts, invites: deps.invites },
    { accountId: member.accountId, email: member.email, memberId: member.id },
    now,
  );
  return mailLink(deps.mailer, {
    to: member.email,
    purpose: 'reset',
    accountName: account.name,
    link: deps.linkOf(link.token),
    expiresAt: link.expiresAt,
  });
}
