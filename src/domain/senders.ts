/**
 * Who is sending: resolves `from` to network credentials and says whether `to` may be messaged from it.
 * The sandbox number is shared by every account; any other number belongs to exactly one account.
 */

import { decryptSecret } from '../lib/sealed-secrets.ts';
import { userLabel } from '../lib/user-id.ts';
import { GatewayError } from './errors.ts';
import type { AccountsStore } from './ports/accounts.ts';
import type { ConversationsStore } from './ports/conversations.ts';
import type { NumberCredentials } from './ports/network.ts';
import type { NumbersStore } from './ports/numbers.ts';

export interface SandboxSettings {
  phone: string;
  phoneNumberId: string;
  accessToken: string;
}

export interface Sender {
  phone: string;
  credentials: NumberCredentials;
  /** False for a number whose inbound traffic the gateway does not see, so it cannot judge the window. */
  enforceWindow: boolean;
  isSandbox: boolean;
  /**
   * When the user last wrote to this number, if it was read along with the sender (sandbox sends read it in
   * the same query as the membership); absent when still to be looked up.
   */
  lastInbound?: { at: number | undefined };
}

export interface SenderDeps {
  sandbox: SandboxSettings;
  secretKey: Buffer;
  numbers: Pick<NumbersStore, 'findNumberOfAccount'>;
  conversations: Pick<ConversationsStore, 'sandboxMembership' | 'phoneOfUser'>;
  accounts: Pick<AccountsStore, 'findAccount'>;
}

export async function resolveSender(
  deps: SenderDeps,
  accountId: string,
  from: string,
  to: string,
): Promise<Sender> {
  if (from === deps.sandbox.phone) {
    const member = await deps.conversations.sandboxMembership(from, to);
    if (member?.accountId !== accountId) {
      const account = await deps.accounts.findAccount(accountId);
      throw new GatewayError(
        'forbidden_number',
        `${userLabel(to)} has not joined your sandbox: they must first send "join ${account?.joinCode ?? '<your join code>'}" to +${from}`,
        { field: 'to' },
      );
    }
    return {
      phone: from,
      credentials: { phoneNumberId: deps.sandbox.phoneNumberId, accessToken: deps.sandbox.accessToken },
      enforceWindow: true,
      isSandbox: true,
      lastInbound: { at: member.lastInboundAt },
    };
  }
  const number = await accountNumber(deps, accountId, from);
  return {
    phone: from,
    credentials: {
      phoneNumberId: number.phoneNumberId,
      accessToken: decryptSecret(number.sealedAccessToken, deps.secretKey),
      ...(number.maxSendsPerSecond ? { maxSendsPerSecond: number.maxSendsPerSecond } : {}),
    },
    enforceWindow: number.sessionCheck,
    isSandbox: false,
  };
}

async function accountNumber(
  deps: Pick<SenderDeps, 'numbers' | 'sandbox'>,
  accountId: string,
  phone: string,
) {
  const number = await deps.numbers.findNumberOfAccount(accountId, phone);
  if (!number) {
    throw new GatewayError(
      'forbidden_number',
      `+${phone} is neither the sandbox number (+${deps.sandbox.phone}) nor a number registered to your account`,
      { field: 'from' },
    );
  }
  return number;
}

/**
 * The network credentials of a number the account may use (the sandbox, or one of its own), for a call
 * that names no user (an upload); a refusal names `field`.
 */
export async function numberCredentials(
  deps: Pick<SenderDeps, 'numbers' | 'sandbox' | 'secretKey'>,
  accountId: string,
  phone: string,
  field: string,
): Promise<NumberCredentials> {
  if (phone === deps.sandbox.phone)
    return { phoneNumberId: deps.sandbox.phoneNumberId, accessToken: deps.sandbox.accessToken };
  try {
    const number = await accountNumber(deps, accountId, phone);
    return {
      phoneNumberId: number.phoneNumberId,
      accessToken: decryptSecret(number.sealedAccessToken, deps.secretKey),
    };
  } catch (error) {
    if (error instanceof GatewayError) throw new GatewayError(error.code, error.message, { field });
    throw error;
  }
}
