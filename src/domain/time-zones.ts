/**
 * The time zone a portal user reads times in (docs/portal.md, "Your profile"): one of the IANA zones this
 * runtime knows, or none, for the browser's own. The gateway writes times in UTC; the page script shows
 * them in the chosen zone.
 */
import { currentZoneName } from '../lib/zoned-time.ts';
import { GatewayError } from './errors.ts';
import type { PortalStore } from './ports/portal.ts';

/** The zones offered, by their current names (src/lib/zoned-time.ts), in order. */
export const TIME_ZONES: readonly string[] = [
  'UTC',
  ...new Set(
    Intl.supportedValuesOf('timeZone')
      .filter((z) => z !== 'UTC')
      .map(currentZoneName)
      .sort(),
  ),
];
/** Those, and the runtime's own older names of the renamed ones, which earlier choices may hold. */
const KNOWN = new Set([...TIME_ZONES, ...Intl.supportedValuesOf('timeZone')]);

/** Sets the user's zone; empty: their browser's. Anything else than a known zone is refused, naming `timeZone`. */
export async function chooseTimeZone(
  portal: Pick<PortalStore, 'setTimeZone'>,
  userId: string,
  value: string,
): Promise<string | null> {
  // Kept by its current name, whichever name it was given by.
  const zone = currentZoneName(value.trim());
  if (zone !== '' && !KNOWN.has(zone))
    throw new GatewayError(
      'invalid_request',
      '`timeZone` must be a time zone such as Europe/Paris or America/New_York',
      {
        field: 'timeZone',
      },
    );
  await portal.setTimeZone(userId, zone || null);
  return zone || null;
}
