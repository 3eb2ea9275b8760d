/**
 * What a member of an account may open in the portal (docs/portal.md, "Team"; docs/adr/0029), by role:
 * - owner: everything, and only an owner makes or removes another owner;
 * - admin: everything else, the team included;
 * - agent: the customer side only: the inbox, the dashboard, the message log and the contacts;
 * - developer: the technical side: the dashboard, the message log, API keys (settings), webhooks, flows.
 * A page not named here is for owners and admins: what is new is closed until it is placed.
 */

export const ROLES = ['owner', 'admin', 'agent', 'developer'] as const;
export type Role = (typeof ROLES)[number];

const EVERYONE: readonly Role[] = ROLES;
const MANAGERS: readonly Role[] = ['owner', 'admin'];

const SECTION_ROLES: Record<string, readonly Role[]> = {
  dashboard: EVERYONE,
  profile: EVERYONE,
  messages: EVERYONE,
  contacts: ['owner', 'admin', 'agent'],
  inbox: ['owner', 'admin', 'agent'],
  settings: ['owner', 'admin', 'developer'],
  webhooks: ['owner', 'admin', 'developer'],
  flows: ['owner', 'admin', 'developer'],
  templates: MANAGERS,
  campaigns: MANAGERS,
  team: MANAGERS,
};

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** Whether `role` may open the portal's section (the first part of the path after /app/). */
export function canOpen(role: Role, section: string): boolean {
  return (SECTION_ROLES[section] ?? MANAGERS).includes(role);
}

/** Roles `by` may give or take away: only an owner deals with owners. */
export function canManage(by: Role, role: Role): boolean {
  return MANAGERS.includes(by) && (role !== 'owner' || by === 'owner');
}
