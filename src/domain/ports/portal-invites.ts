/** What one-time portal links (src/domain/portal-invites.ts) need from the store, in domain terms. */

export interface PortalInviteRecord {
  /** SHA-256 (hex) of the link's token: the token itself is never stored. */
  tokenHash: string;
  accountId: string;
  /** Lower-cased; null when whoever opens the link chooses the email. */
  email: string | null;
  createdAt: number;
  expiresAt: number;
  /** The role of a member the link adds (src/domain/roles.ts); null: owner. An existing user keeps theirs. */
  role?: string | null;
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
  /**
   * The email belongs to a user of another account, or to a user at all when the link was not made for
   * their email: nothing changed, the link stays usable.
   */
  | { kind: 'email-taken' };

export interface PortalInvitesStore {
  insertInvite(invite: PortalInviteRecord): Promise<void>;
  /** The account of the portal user with this (lower-cased) email, if there is one. */
  accountOfEmail(email: string): Promise<string | undefined>;
  findLiveInvite(tokenHash: string, now: number): Promise<LiveInvite | undefined>;
  /**
   * In one transaction: marks the link used (only if live), then gives the account a portal user with this
   * email and password, or sets the password of the account's user that has it already.
   */
  redeemInvite(
    tokenHash: string,
    user: { email: string; passwordHash: string },
    now: number,
  ): Promise<RedeemOutcome>;
}
