/**
 * A list of delays written for people, e.g. `5s,5m,30m,2h,5h,10h,10h` (the webhook retry schedule,
 * docs/configuration.md), read into milliseconds. The configuration reads it at start-up, so it lives
 * here rather than beside the webhook dispatcher that uses the result.
 */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDelayList(raw: string): number[] {
  const delays = raw.split(',').map((part) => {
    const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!m) throw new Error(`"${part.trim()}" is not a delay like 5s, 5m, 2h or 1d`);
    return Number(m[1]) * UNITS[m[2]!]!;
  });
  if (delays.length === 0 || delays.length > 50) throw new Error('must list 1 to 50 delays');
  return delays;
}
