/** What one-time portal links (src/domain/portal-invites.ts) need from the store, in domain terms. */

export interface PortalInviteRecord {
  /** SHA-256 (hex) of the link's token: the token itself is never stored. */
  tokenHash: string;
  accountId: string;
  /** Lower-cased; null when whoever opens the link chooses the email. */
  email: string | null;
  createdAt: number;
  expiresAt: number;
  /** The role of a member the link adds (src/domain/roles.ts); null: owner. */
  role?: string | null;
  /**
   * The member whose password the link sets (a password link); null: the link adds a member (an
   * invitation). A password link sets that member's password only, and nothing once they are removed.
   */
  userId?: string | null;
}

/** A link that can still be used: not expired, not used. */
export interface LiveInvite {
  accountId: string;
  accountName: string;
  email: string | null;
}

/** The portal user a used link signed in. */
export interface InvitedUser {
  userId: string;
  accountId: string;
  email: string;
}

export type RedeemOutcome =
  | { kind: 'signed-in'; user: InvitedUser }
  /** Expired, used already, or never issued: nothing changed. */
  | { kind: 'gone' }
  /** An invitation for an email that a user has already: nothing changed, the link stays usable. */
  | { kind: 'email-taken' };

/** An invitation not used yet, as the team page lists it. */
export interface PendingInvitation {
  /** Names it in the page's revoke form: the first 16 hex digits of its token hash, never the token. */
  ref: string;
  /** Lower-cased; null when whoever opens the link chooses it. */
  email: string | null;
  /** The role the link gives; null: owner. */
  role: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface PortalInvitesStore {
  insertInvite(invite: PortalInviteRecord): Promise<void>;
  /** The account's invitations (not password links) neither used nor expired at `now`, newest first. */
  pendingInvitations(accountId: string, now: number): Promise<PendingInvitation[]>;
  /**
   * Ends the account's pending invitation whose token hash begins with `ref` (PendingInvitation.ref):
   * false when it has none such (another account's, used, expired, or a password link).
   */
  revokeInvitation(accountId: string, ref: string, now: number): Promise<boolean>;
  /** The account of the portal user with this (lower-cased) email, if there is one. */
  accountOfEmail(email: string): Promise<string | undefined>;
  /** The portal user with this (lower-cased) email, if there is one. */
  userOfEmail(email: string): Promise<{ userId: string; accountId: string } | undefined>;
  findLiveInvite(tokenHash: string, now: number): Promise<LiveInvite | undefined>;
  /**
   * In one transaction: marks the link used (only if live), then sets the password of the link's member
   * (gone when that member no longer is one), or, for an invitation, gives the account a portal user with
   * this email, password and the link's role (email-taken when any user has the email).
   */
  redeemInvite(
    tokenHash: string,
    user: { email: string; passwordHash: string },
    now: number,
  ): Promise<RedeemOutcome>;
}
