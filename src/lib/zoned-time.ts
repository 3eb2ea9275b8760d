/**
 * Local dates and times read in an IANA time zone ("2026-12-01T09:00" in Europe/Paris), with the zone
 * rules the runtime's Intl data has, daylight saving included.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Zones IANA renamed that the runtime's Intl data (ICU) still calls by their old name: people look for
 * Asia/Kolkata, not Asia/Calcutta. Both are read; the current name is the one shown and kept.
 */
const CURRENT_NAMES: ReadonlyMap<string, string> = new Map([
  ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
  ['America/Godthab', 'America/Nuuk'],
  ['Asia/Calcutta', 'Asia/Kolkata'],
  ['Asia/Katmandu', 'Asia/Kathmandu'],
  ['Asia/Rangoon', 'Asia/Yangon'],
  ['Asia/Saigon', 'Asia/Ho_Chi_Minh'],
  ['Atlantic/Faeroe', 'Atlantic/Faroe'],
  ['Europe/Kiev', 'Europe/Kyiv'],
  ['Pacific/Enderbury', 'Pacific/Kanton'],
  ['Pacific/Ponape', 'Pacific/Pohnpei'],
  ['Pacific/Truk', 'Pacific/Chuuk'],
]);

/** A zone by its current IANA name (the runtime's own name when it has no newer one). */
export function currentZoneName(zone: string): string {
  return CURRENT_NAMES.get(zone) ?? zone;
}

/** The zone's canonical name (its current one), or null when the runtime knows no such zone. */
export function timeZoneName(zone: string): string | null {
  try {
    return currentZoneName(new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone);
  } catch {
    return null;
  }
}

/** How far the zone's wall clock is ahead of UTC at the instant `at`, in ms. */
function offsetAt(zone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a text names: an instant with its offset ("2026-12-01T08:00:00Z"), or a local date and
 * time read in `zone`. Null when it is neither or names no real date.
 */
export function instantOf(text: string, zone: string): number | null {
  if (INSTANT.test(text)) {
    const at = Date.parse(text);
    return Number.isNaN(at) ? null : at;
  }
  const wall = wallClockOf(text);
  return wall === null ? null : instantOfWall(wall, zone);
}

/** The instant at which `zone`'s clocks show `wall` (a wall clock written as if it were UTC). */
function instantOfWall(wall: number, zone: string): number {
  // Two passes settle the offset on either side of a daylight-saving change.
  const first = wall - offsetAt(zone, wall);
  return wall - offsetAt(zone, first);
}

/** A local date and time as if it were UTC (its wall clock), or null when it is not one or no real date. */
function wallClockOf(text: string): number | null {
  const m = LOCAL.exec(text);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(wall);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  return wall;
}

/**
 * Whether a local date and time never happens in `zone`: the clocks skip it when they go forward
 * ("2027-03-14T02:30" in America/New_York). An instant with its offset always happens.
 */
export function skippedByClocks(text: string, zone: string): boolean {
  if (INSTANT.test(text)) return false;
  const wall = wallClockOf(text);
  if (wall === null) return false;
  const at = instantOfWall(wall, zone);
  return at + offsetAt(zone, at) !== wall;
}
