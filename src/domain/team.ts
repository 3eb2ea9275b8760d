/**
 * The people of an account (docs/portal.md, "Team"): its portal users, a one-time link that adds one (or,
 * made for a member's email, sets that member's password: a reset), and removing one, which ends their
 * sessions at once. A member's role says what they may open (roles.ts); owners and admins manage the
 * team, and only an owner makes or removes an owner. Links are the ones `users invite` prints
 * (src/domain/portal-invites.ts): shown once, stored only as a hash.
 */
import { GatewayError } from './errors.ts';
import { type IssuedInvite, issuePortalInvite } from './portal-invites.ts';
import type { AccountsStore } from './ports/accounts.ts';
import type { Member, PortalStore } from './ports/portal.ts';
import type { PendingInvitation, PortalInvitesStore } from './ports/portal-invites.ts';
import { canManage, isRole, ROLES, type Role } from './roles.ts';

export interface TeamDeps {
  portal: Pick<PortalStore, 'listMembers' | 'removeMember' | 'setRole'>;
  accounts: AccountsStore;
  invites: PortalInvitesStore;
}

export function listMembers(deps: TeamDeps, accountId: string): Promise<Member[]> {
  return deps.portal.listMembers(accountId);
}

async function member(deps: TeamDeps, accountId: string, memberId: string): Promise<Member> {
  const found = (await deps.portal.listMembers(accountId)).find((m) => m.id === memberId);
  if (!found) throw new GatewayError('not_found', 'There is no such member in this account.');
  return found;
}

/**
 * A link that adds someone to the account with `role` (for `email` when given; whoever opens it
 * otherwise). A role that is none, or one `by` may not give, is refused naming `role`.
 */
export async function inviteMember(
  deps: TeamDeps,
  accountId: string,
  input: { email: string | undefined; role: string },
  by: Role,
  now: number,
): Promise<IssuedInvite> {
  const { email, role } = input;
  if (!isRole(role))
    throw new GatewayError('invalid_request', `\`role\` must be one of ${ROLES.join(', ')}`, {
      field: 'role',
    });
  if (!canManage(by, role))
    throw new GatewayError('invalid_request', `\`role\`: as ${by}, you cannot add an ${role}`, {
      field: 'role',
    });
  // An invitation never sets a member's password (issuePortalInvite refuses a member's email): that is
  // a password link, which asks whether the maker may manage them (an admin must not become the owner).
  return issuePortalInvite(
    { accounts: deps.accounts, invites: deps.invites },
    { accountId, email, role },
    now,
  );
}

/** A link that sets a member's password: for one who forgot it, made by one who may manage them. */
export async function passwordResetLink(
  deps: TeamDeps,
  accountId: string,
  memberId: string,
  by: { userId: string; role: Role },
  now: number,
): Promise<{ member: Member; link: IssuedInvite }> {
  const found = await member(deps, accountId, memberId);
  // Whoever opens the link signs in as that member: an admin could otherwise become an owner.
  if (found.id !== by.userId && !canManage(by.role, found.role))
    throw new GatewayError(
      'conflict',
      `As ${by.role}, you cannot make a password link for an ${found.role}.`,
    );
  // It sets this member's password and keeps their role; removed, they have no password to set.
  const link = await issuePortalInvite(
    { accounts: deps.accounts, invites: deps.invites },
    { accountId, email: found.email, memberId: found.id },
    now,
  );
  return { member: found, link };
}

/**
 * Gives a member another role, at once (a session reads its member's role on every request). Made by one
 * who manages both the member's role and the new one; never one's own, so an owner always remains.
 */
export async function changeRole(
  deps: TeamDeps,
  accountId: string,
  memberId: string,
  role: string,
  by: { userId: string; role: Role },
): Promise<Member> {
  if (!isRole(role))
    throw new GatewayError('invalid_request', `\`role\` must be one of ${ROLES.join(', ')}`, {
      field: 'role',
    });
  const found = await member(deps, accountId, memberId);
  if (found.id === by.userId)
    throw new GatewayError(
      'conflict',
      'You cannot change your own role; another member who manages yours can.',
    );
  if (!canManage(by.role, found.role) || !canManage(by.role, role))
    throw new GatewayError('conflict', `As ${by.role}, you cannot make an ${found.role} an ${role}.`);
  if (!(await deps.portal.setRole(accountId, memberId, role)))
    throw new GatewayError('not_found', 'There is no such member in this account.');
  return { ...found, role };
}

/** Removes a member and signs them out everywhere; nobody removes themselves (the last member stays). */
export async function removeMember(
  deps: TeamDeps,
  accountId: string,
  memberId: string,
  by: { userId: string; role: Role },
): Promise<Member> {
  const found = await member(deps, accountId, memberId);
  if (found.id === by.userId)
    throw new GatewayError('conflict', 'You cannot remove yourself; another member of the account can.');
  if (!canManage(by.role, found.role))
    throw new GatewayError('conflict', `As ${by.role}, you cannot remove an ${found.role}.`);
  if (!(await deps.portal.removeMember(accountId, memberId)))
    throw new GatewayError('not_found', 'There is no such member in this account.');
  return found;
}

/** The account's invitations not used yet, newest first: who they are for, their role, when they expire. */
export function pendingInvitations(
  deps: TeamDeps,
  accountId: string,
  now: number,
): Promise<PendingInvitation[]> {
  return deps.invites.pendingInvitations(accountId, now);
}

/**
 * Ends a pending invitation at once (a link sent to the wrong address, or not wanted any more), by one who
 * may add a member of its role. Another account's, a used or an expired one is "not found".
 */
export async function revokeInvitation(
  deps: TeamDeps,
  accountId: string,
  ref: string,
  by: Role,
  now: number,
): Promise<PendingInvitation> {
  const found = (await deps.invites.pendingInvitations(accountId, now)).find((i) => i.ref === ref);
  const notFound = () =>
    new GatewayError('not_found', 'There is no such pending invitation in this account.');
  if (!found) throw notFound();
  const role = found.role ?? 'owner';
  if (isRole(role) && !canManage(by, role))
    throw new GatewayError('invalid_request', `As ${by}, you cannot revoke an invitation of an ${role}.`);
  if (!(await deps.invites.revokeInvitation(accountId, ref, now))) throw notFound();
  return found;
}
