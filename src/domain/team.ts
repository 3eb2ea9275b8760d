/**
 * The people of an account (docs/portal.md, "Team"): its portal users, a one-time link that adds one (or,
 * made for a member's email, sets that member's password: a reset), and removing one, which ends their
 * sessions at once. Every member can do everything the portal offers: there are no roles yet. Links are
 * the ones `users invite` prints (src/domain/portal-invites.ts): shown once, stored only as a hash.
 */
import { GatewayError } from './errors.ts';
import { type IssuedInvite, issuePortalInvite } from './portal-invites.ts';
import type { AccountsStore } from './ports/accounts.ts';
import type { Member, PortalStore } from './ports/portal.ts';
import type { PortalInvitesStore } from './ports/portal-invites.ts';

export interface TeamDeps {
  portal: Pick<PortalStore, 'listMembers' | 'removeMember'>;
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

/** A link that adds someone to the account (for `email` when given; whoever opens it otherwise). */
export function inviteMember(
  deps: TeamDeps,
  accountId: string,
  email: string | undefined,
  now: number,
): Promise<IssuedInvite> {
  return issuePortalInvite({ accounts: deps.accounts, invites: deps.invites }, { accountId, email }, now);
}

/** A link that sets a member's password: for one who forgot it. */
export async function passwordResetLink(
  deps: TeamDeps,
  accountId: string,
  memberId: string,
  now: number,
): Promise<{ member: Member; link: IssuedInvite }> {
  const found = await member(deps, accountId, memberId);
  return { member: found, link: await inviteMember(deps, accountId, found.email, now) };
}

/** Removes a member and signs them out everywhere; nobody removes themselves (the last member stays). */
export async function removeMember(
  deps: TeamDeps,
  accountId: string,
  memberId: string,
  byUserId: string,
): Promise<Member> {
  const found = await member(deps, accountId, memberId);
  if (found.id === byUserId)
    throw new GatewayError('conflict', 'You cannot remove yourself; another member of the account can.');
  if (!(await deps.portal.removeMember(accountId, memberId)))
    throw new GatewayError('not_found', 'There is no such member in this account.');
  return found;
}
