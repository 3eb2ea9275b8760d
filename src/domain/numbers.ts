/**
 * Business numbers of an account: registering one (its rules, and its token sealed with the install's
 * secret key) and listing them. The CLI registers numbers; the portal lists them.
 */

import { knownLimit, LIMITS, limitOfTier } from '../lib/messaging-tiers.ts';
import { normalizePhone } from '../lib/phone.ts';
import { encryptSecret } from '../lib/sealed-secrets.ts';
import { GatewayError } from './errors.ts';
import type { BusinessNumber, NumbersStore } from './ports/numbers.ts';

export interface NumberDeps {
  numbers: NumbersStore;
  secretKey: Buffer;
  /** The shared sandbox number, which no account may register as its own. */
  sandboxPhone: string;
  /** On the simulated network a number's id and token default to the simulator's. */
  simulatorAccessToken: string | null;
}

/** What registering a number takes; fields left out take the simulated network's defaults. */
export interface NumberRegistration {
  phone: string;
  phoneNumberId?: string | undefined;
  accessToken?: string | undefined;
  wabaId?: string | undefined;
  sessionCheck: boolean;
}

const invalid = (field: string, message: string) => new GatewayError('invalid_request', message, { field });

export async function registerNumber(
  deps: NumberDeps,
  accountId: string,
  input: NumberRegistration,
): Promise<BusinessNumber> {
  const phone = normalizePhone(input.phone);
  if (!phone) throw invalid('phone', '`phone` must be a valid phone number with country code');
  if (phone === deps.sandboxPhone)
    throw invalid('phone', 'that is the sandbox number, which every account shares already');
  const simulated = deps.simulatorAccessToken !== null;
  const phoneNumberId = input.phoneNumberId ?? (simulated ? phone : undefined);
  const accessToken = input.accessToken ?? deps.simulatorAccessToken ?? undefined;
  if (!phoneNumberId || !accessToken)
    throw invalid(
      phoneNumberId ? 'accessToken' : 'phoneNumberId',
      '`phoneNumberId` and `accessToken` are required with NETWORK=cloud',
    );
  const wabaId = input.wabaId?.trim() || null;
  if (wabaId !== null && !/^\d{1,20}$/.test(wabaId))
    throw invalid('wabaId', '`wabaId` must be the numeric id of a WhatsApp Business Account');
  if (await deps.numbers.findNumberByPhone(phone))
    throw new GatewayError('conflict', `+${phone} is registered already`, { field: 'phone' });
  return deps.numbers.addNumber({
    accountId,
    phone,
    phoneNumberId,
    sealedAccessToken: encryptSecret(accessToken, deps.secretKey),
    sessionCheck: input.sessionCheck,
    wabaId,
  });
}

export function listNumbers(numbers: NumbersStore, accountId: string): Promise<BusinessNumber[]> {
  return numbers.listNumbersOfAccount(accountId);
}

/** Meta's highest throughput tier, in messages per second (docs/cloud-api.md §7). */
export const MAX_SENDS_PER_SECOND = 1000;

/**
 * Sets the throughput tier the gateway paces a number to (docs/adr/0020-shared-send-pacing.md): the tier
 * Meta gave the number, or lower to send more gently; `null` returns it to NETWORK_MAX_SENDS_PER_SECOND.
 */
export async function setNumberThroughput(
  numbers: Pick<NumbersStore, 'setThroughput'>,
  accountId: string,
  phone: string,
  perSecond: number | null,
): Promise<void> {
  const digits = normalizePhone(phone);
  if (!digits) throw invalid('phone', '`phone` must be a valid phone number with country code');
  if (
    perSecond !== null &&
    !(Number.isInteger(perSecond) && perSecond >= 1 && perSecond <= MAX_SENDS_PER_SECOND)
  )
    throw invalid(
      'maxSendsPerSecond',
      `\`maxSendsPerSecond\` must be a whole number from 1 to ${MAX_SENDS_PER_SECOND} (Meta's highest tier)`,
    );
  if (!(await numbers.setThroughput(accountId, digits, perSecond)))
    throw new GatewayError('not_found', `+${digits} is not a number of this account`, { field: 'phone' });
}

/**
 * Sets the messaging limit the gateway keeps a number's campaigns within (docs/campaigns.md, "The
 * messaging limit"): the unique users Meta lets it reach in 24 hours, one of Meta's limits; `null` is
 * unlimited. The network's `phone_number_quality_update` sets it too.
 */
export async function setNumberMessagingLimit(
  numbers: Pick<NumbersStore, 'setMessagingLimit'>,
  accountId: string,
  phone: string,
  limit: number | null,
): Promise<void> {
  const digits = normalizePhone(phone);
  if (!digits) throw invalid('phone', '`phone` must be a valid phone number with country code');
  if (limit !== null && knownLimit(limit) === undefined)
    throw invalid(
      'messagingLimit',
      `\`messagingLimit\` must be one of Meta's limits: ${LIMITS.join(', ')}, or unlimited`,
    );
  if (!(await numbers.setMessagingLimit(accountId, digits, limit)))
    throw new GatewayError('not_found', `+${digits} is not a number of this account`, { field: 'phone' });
}

/**
 * The network's word on a number's messaging limit (`current_limit` of a `phone_number_quality_update`,
 * e.g. `TIER_2K`): the gateway keeps the number's campaigns within it from then on. A tier name it does
 * not know changes nothing.
 */
export async function recordReportedLimit(
  numbers: Pick<NumbersStore, 'findNumberByPhone' | 'setMessagingLimit'>,
  phone: string,
  tier: string,
): Promise<void> {
  const limit = limitOfTier(tier);
  const number = limit === undefined ? undefined : await numbers.findNumberByPhone(phone);
  if (number && limit !== undefined) await numbers.setMessagingLimit(number.accountId, phone, limit);
}
