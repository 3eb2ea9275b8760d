/**
 * The users each business number reached in the last 24 hours, for its messaging limit (docs/campaigns.md,
 * "The messaging limit"; src/store/number-reach-repo.ts).
 */

export interface ReachRequest {
  /** The business number, E.164 digits. */
  business: string;
  /** The users about to be sent a message, by their key (phone digits or business-scoped user id). */
  users: string[];
  /** How many users the number may reach in the window; Infinity records reaches and grants every one. */
  limit: number;
  now: number;
  /** The moving window: 24 hours. */
  windowMs: number;
}

export interface ReachGrant {
  /**
   * The users that may be sent: those the number reached within the window or who wrote to it within
   * the window (no new user), and new users while there was room (counted as reached from `now`).
   */
  allowed: Set<string>;
  /** Users the number has reached within the window, those just granted included. */
  reached: number;
  /** When the oldest reach leaves the window, so that there is room again; null when none is held. */
  roomAt: number | null;
}

export interface NumberReachStore {
  /** Decides and records in one step, so that nodes deciding at once never grant past the limit together. */
  reserve(request: ReachRequest): Promise<ReachGrant>;
}
