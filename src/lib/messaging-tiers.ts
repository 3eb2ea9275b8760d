/**
 * Meta's messaging limits (docs/cloud-api.md §7, "Messaging limit"): how many unique users a business may
 * reach outside a customer-service window in a moving 24 hours. The simulator emulates them and the
 * gateway keeps its campaigns within them, so both read the one table here.
 */

/** The limits: 250, 2000 (1000 in older material), 10 000, 100 000; unlimited is null. */
export const LIMITS = [250, 1000, 2000, 10_000, 100_000] as const;
export type MessagingLimit = (typeof LIMITS)[number] | null;

/** The names of the limits in `phone_number_quality_update` webhooks (`current_limit`). */
const TIERS: Record<string, MessagingLimit> = {
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: null,
};

export const TIER_NAMES = Object.keys(TIERS);

/** The limit a tier name stands for; undefined for a name that is not one. */
export function limitOfTier(tier: string): MessagingLimit | undefined {
  return Object.hasOwn(TIERS, tier) ? TIERS[tier] : undefined;
}

export function tierOf(limit: MessagingLimit): string {
  return Object.keys(TIERS).find((tier) => TIERS[tier] === limit) ?? 'TIER_UNLIMITED';
}

/** `limit` as one of Meta's limits, or undefined when it is none of them. */
export function knownLimit(limit: number): MessagingLimit | undefined {
  return LIMITS.find((l) => l === limit);
}
