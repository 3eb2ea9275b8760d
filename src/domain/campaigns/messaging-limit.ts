/**
 * Meta's messaging limit, kept by the gateway (docs/campaigns.md, "The messaging limit"; ADR 0028): a
 * number may reach so many unique users outside a customer-service window in a moving 24 hours. Before
 * a batch of a campaign is sent, the users it would reach for the first time are counted against the
 * number's limit (set with `numbers messaging-limit`, or by the network's `phone_number_quality_update`);
 * those past it are not sent, and the campaign pauses saying when there is room again.
 *
 * The count leans to the safe side: a user counts from the moment a campaign is about to message them,
 * even if the send then fails, and messages sent through the API one at a time are not counted (the
 * network's own report, 131064, pauses the campaign if they use up the limit).
 */
import type { Campaign } from '../ports/campaigns.ts';
import type { NumberReachStore } from '../ports/number-reach.ts';
import { iso } from './campaign-events.ts';

/** Meta's window for the messaging limit: a moving 24 hours. */
export const REACH_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface MessagingLimitDeps {
  reach: NumberReachStore;
  /** The number's limit; null when it has none (unlimited, or not an account's own number). */
  limitOf(accountId: string, phone: string): Promise<number | null>;
  now?: () => number;
}

/** Which of a batch's users may be sent; `pause` says why the others may not, when there are some. */
export interface LimitGate {
  allowed: (user: string) => boolean;
  pause?: string;
}

const everyone: LimitGate = { allowed: () => true };

export async function withinMessagingLimit(
  deps: MessagingLimitDeps,
  campaign: Campaign,
  users: string[],
): Promise<LimitGate> {
  if (users.length === 0) return everyone;
  // Reaches are recorded for a number without a limit too: a limit set later, or reported by the
  // network, then counts the users the number reached before it.
  const limit = (await deps.limitOf(campaign.accountId, campaign.from)) ?? Number.POSITIVE_INFINITY;
  const grant = await deps.reach.reserve({
    business: campaign.from,
    users,
    limit,
    now: (deps.now ?? Date.now)(),
    windowMs: REACH_WINDOW_MS,
  });
  const allowed = (user: string) => grant.allowed.has(user);
  if (users.every(allowed)) return { allowed };
  const room = grant.roomAt === null ? '' : `; a new user can be reached from ${iso(grant.roomAt)}`;
  return {
    allowed,
    pause: `+${campaign.from} reached its messaging limit: ${limit.toLocaleString('en-US')} unique users in 24 hours${room}`,
  };
}
