/**
 * The conversations store: sandbox membership (which account a user joined through the shared number),
 * the 24-hour customer-service window per (business number, user), and which phone number goes with
 * which business-scoped user id (docs/cloud-api.md §10).
 *
 * A user is named by a key: their phone number (digits), or their business-scoped user id when the
 * network withheld the number and nothing linked the two yet (src/domain/inbound.ts, `userKeyOf`).
 */

export interface SandboxMembership {
  accountId: string;
  /** The last time the user wrote to the sandbox number, if ever. */
  lastInboundAt: number | undefined;
}

export interface ConversationsStore {
  /** Binds a user to an account on the sandbox number; joining another account's sandbox moves them. */
  joinSandbox(sandboxPhone: string, userPhone: string, accountId: string, at: number): Promise<void>;
  leaveSandbox(sandboxPhone: string, userPhone: string): Promise<boolean>;
  sandboxAccountOf(sandboxPhone: string, userPhone: string): Promise<string | undefined>;
  sandboxMembership(sandboxPhone: string, userPhone: string): Promise<SandboxMembership | undefined>;
  /** The user wrote at `at`; a delayed report never shortens the window. */
  recordInbound(businessPhone: string, userPhone: string, at: number): Promise<void>;
  lastInboundAt(businessPhone: string, userPhone: string): Promise<number | undefined>;
  /**
   * Remembers what the network said of a user of a business number: their business-scoped id, with
   * their phone number when it came too (it is kept when a later message withholds it).
   */
  linkUser(businessPhone: string, user: LinkedUser, at: number): Promise<void>;
  /** The phone number last seen with this business-scoped id on this number, if any. */
  phoneOfUser(businessPhone: string, userId: string): Promise<string | undefined>;
  /**
   * What was kept under one key of a user (their sandbox membership, their window) now belongs to their
   * phone number: the key is their business-scoped id a message just linked to the number, or the number
   * they changed from. What the number already had wins.
   */
  adoptUser(businessPhone: string, fromKey: string, phone: string): Promise<void>;
}

export interface LinkedUser {
  userId: string;
  phone: string | null;
  username: string | null;
}
