/**
 * The conversations store: sandbox membership (which account a user joined through the shared number) and
 * the 24-hour customer-service window per (business number, user).
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
}
