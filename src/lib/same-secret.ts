/**
 * Compares a presented credential with the expected one in time that does not depend on where they first
 * differ, so a caller cannot learn a token a character at a time. A missing credential never matches.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  // Digests have one length whatever the inputs, so the comparison leaks not even the token's length.
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
