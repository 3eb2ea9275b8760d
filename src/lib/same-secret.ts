/**
 * Compares a presented credential with the expected one in time that does not depend on where they first
 * differ, so a caller cannot learn a token a character at a time. A missing credential never matches.
 */
import { hash, timingSafeEqual } from 'node:crypto';

// Digests have one length whatever the inputs, so the comparison leaks not even the token's length.
const digest = (value: string) => hash('sha256', value, 'buffer');

/** The expected credential is the same on every call of a route: its digest is made once. */
let lastExpected: { value: string; digest: Buffer } | undefined;

export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  if (lastExpected?.value !== expected) lastExpected = { value: expected, digest: digest(expected) };
  return timingSafeEqual(digest(given), lastExpected.digest);
}
