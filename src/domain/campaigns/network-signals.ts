/**
 * What the network says that stops a number's campaigns (docs/campaigns.md, "Pausing by itself"): its
 * quality flagged or its messaging limit lowered (`phone_number_quality_update`), its WhatsApp Business
 * Account restricted, disabled or deleted (`account_update`), or a message refused because the number
 * reached its messaging limit (131064) or its spam rate limit (131048). Every campaign
 * running from that number pauses, with the network's words as its reason; the business resumes it once
 * the number has recovered.
 */
import { recordReportedLimit } from '../numbers.ts';
import type { AccountRestrictionEvent, NumberQualityEvent } from '../ports/network-events.ts';
import type { NumbersStore } from '../ports/numbers.ts';
import { pauseWithReason } from './campaign-control.ts';
import type { CampaignDeps } from './campaign-service.ts';

/**
 * Codes of a send the network refused that concern the sending number, not the one message: its limits
 * (131064 messaging, 131048 spam rate), the account locked (131031) or in maintenance (131057), the
 * business blocked for a while (368), the token refused (190), the account unable to pay or not eligible
 * (131042: every message fails until it is resolved), the number not registered (133010), and the app's
 * permission missing (10, and 200 to 299). A campaign stops there rather than try every other recipient
 * (campaign-runner.ts).
 */
const NUMBER_WIDE_CODES: ReadonlySet<number> = new Set([
  131048, 131064, 131031, 368, 190, 131057, 131042, 133010, 10,
]);

export function isNumberWideCode(code: number): boolean {
  return NUMBER_WIDE_CODES.has(code) || (code >= 200 && code <= 299);
}

/** Failed-status codes that concern the sending number, not the one message. */
export const NUMBER_LIMIT_CODES: ReadonlyMap<number, string> = new Map([
  [131064, 'the network reports that +{phone} reached its messaging limit (unique users in 24 hours)'],
  [
    131048,
    'the network reports that +{phone} hit its spam rate limit: too many users blocked or reported it',
  ],
]);

/** Pauses every campaign running from `phone`; answers how many paused. */
export async function pauseCampaignsFrom(deps: CampaignDeps, phone: string, reason: string): Promise<number> {
  let paused = 0;
  for (const campaign of await deps.campaigns.runningFrom(phone)) {
    if (await pauseWithReason(deps, campaign, reason)) paused++;
  }
  return paused;
}

/**
 * A `phone_number_quality_update`: the limit it names becomes the number's messaging limit (numbers.ts),
 * and a flag or a downgrade pauses the number's campaigns.
 */
export async function onNumberQuality(
  deps: CampaignDeps,
  numbers: Pick<NumbersStore, 'findNumberByPhone' | 'setMessagingLimit'>,
  event: NumberQualityEvent,
): Promise<void> {
  if (event.currentLimit) await recordReportedLimit(numbers, event.phone, event.currentLimit);
  if (event.event !== 'FLAGGED' && event.event !== 'DOWNGRADE') return;
  const limit = event.currentLimit ? `; its messaging limit is now ${event.currentLimit}` : '';
  const what = event.event === 'FLAGGED' ? 'flagged the quality of' : 'lowered the messaging limit of';
  await pauseCampaignsFrom(deps, event.phone, `the network ${what} +${event.phone}${limit}`);
}

/** A message of `phone` failed with `code`: the number's campaigns pause when the code concerns the number. */
export async function onNumberLimitFailure(deps: CampaignDeps, phone: string, code: number): Promise<void> {
  const words = NUMBER_LIMIT_CODES.get(code);
  if (words) await pauseCampaignsFrom(deps, phone, `${words.replace('{phone}', phone)} (#${code})`);
}

/**
 * An `account_update` that stops the WhatsApp Business Account from starting conversations: the campaigns
 * of every number of that account pause, the sandbox's too when it is the sandbox's account (`sandbox` is
 * its number and account id, when known).
 */
export async function onAccountRestriction(
  deps: CampaignDeps,
  numbers: Pick<NumbersStore, 'numbersOfWaba'>,
  sandbox: { phone: string; wabaId: string | null },
  event: AccountRestrictionEvent,
): Promise<void> {
  const phones = (await numbers.numbersOfWaba(event.wabaId)).map((n) => n.phone);
  if (sandbox.wabaId === event.wabaId) phones.push(sandbox.phone);
  for (const phone of phones) await pauseCampaignsFrom(deps, phone, event.reason);
}
