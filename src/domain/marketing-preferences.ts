/**
 * The network's word that a user stopped or resumed a business number's marketing in WhatsApp's own
 * settings (`user_preferences`, docs/cloud-api.md §3.8): on the account's own numbers the user is opted out
 * of that number's marketing, or back in (opt-outs.ts), with a `contact.opted_out` / `contact.opted_in`
 * event. The shared sandbox number's marketing is nobody's: there it is only logged.
 */
import type { InboundDeps } from './inbound.ts';
import { applyMarketingPreference } from './opt-outs.ts';
import type { MarketingPreferenceEvent } from './ports/network-events.ts';

export type MarketingPreferenceDeps = Pick<
  InboundDeps,
  'sandbox' | 'numbers' | 'conversations' | 'optOuts' | 'wakeDispatcher' | 'logger'
>;

export async function handleMarketingPreference(
  deps: MarketingPreferenceDeps,
  event: MarketingPreferenceEvent,
): Promise<void> {
  const { phoneNumberId, value } = event;
  const number =
    phoneNumberId === deps.sandbox.phoneNumberId
      ? undefined
      : await deps.numbers.findNumberByPhoneNumberId(phoneNumberId);
  if (!number) {
    const reason = 'marketing preference for the sandbox or for a number no account owns; ignored';
    deps.logger.info({ phoneNumberId, value }, reason);
    return;
  }
  // The key the user is known by on this number, as for their messages (docs/cloud-api.md §10): their
  // number when given or linked to their user id earlier, else that id.
  let user = event.userPhone;
  if (!user && event.userId)
    user = (await deps.conversations.phoneOfUser(number.phone, event.userId)) ?? event.userId;
  if (!user) return; // the reader names one or the other (src/network/user-preferences.ts)
  const preference = { businessPhone: number.phone, user, at: event.at, value };
  if (await applyMarketingPreference(deps.optOuts, number.accountId, preference)) deps.wakeDispatcher();
}
