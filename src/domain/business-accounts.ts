/**
 * The WhatsApp Business Account behind a number an account may manage (templates and flows live in a WABA,
 * not on a number: docs/cloud-api.md §4.1, §6.1), with the token to manage it.
 *
 * The sandbox's WABA comes from configuration; an account's own number carries its WABA id from
 * registration. On the simulated network every business number is its own WABA whose id is the number's
 * phone-number id, so nothing needs configuring there.
 */

import { decryptSecret } from '../lib/sealed-secrets.ts';
import { GatewayError } from './errors.ts';
import type { TemplateAccount } from './ports/network.ts';
import type { NumbersStore } from './ports/numbers.ts';

export interface BusinessAccountDeps {
  sandbox: { phone: string; phoneNumberId: string; accessToken: string; wabaId?: string | null };
  numbers: Pick<NumbersStore, 'findNumberOfAccount'>;
  secretKey: Buffer;
  /** True on the simulated network, where a number's WABA id is its phone-number id. */
  simulated: boolean;
}

export interface BusinessAccount extends TemplateAccount {
  phone: string;
  isSandbox: boolean;
}

/** `field` names the request field that carried `phone`, for the 403. */
export async function businessAccountOf(
  deps: BusinessAccountDeps,
  accountId: string,
  phone: string,
  field: string,
): Promise<BusinessAccount> {
  if (phone === deps.sandbox.phone) {
    const wabaId = deps.sandbox.wabaId || (deps.simulated ? deps.sandbox.phoneNumberId : null);
    if (!wabaId) {
      throw new GatewayError(
        'conflict',
        "this gateway is not configured with the sandbox number's WhatsApp Business Account id (SANDBOX_WABA_ID)",
      );
    }
    return { phone, isSandbox: true, wabaId, accessToken: deps.sandbox.accessToken };
  }
  const number = await deps.numbers.findNumberOfAccount(accountId, phone);
  if (!number) {
    throw new GatewayError(
      'forbidden_number',
      `\`${field}\` +${phone} is neither the sandbox number (+${deps.sandbox.phone}) nor a number registered to your account`,
      { field },
    );
  }
  const wabaId = number.wabaId || (deps.simulated ? number.phoneNumberId : null);
  if (!wabaId) {
    throw new GatewayError(
      'conflict',
      `+${phone} was registered without its WhatsApp Business Account id; register it with \`numbers add ... --waba-id <id>\``,
    );
  }
  return {
    phone,
    isSandbox: false,
    wabaId,
    accessToken: decryptSecret(number.sealedAccessToken, deps.secretKey),
  };
}
