/**
 * Signed, expiring links: the link is its own credential (a webhook receiver or a person opening a preview
 * has no API key to send). Each purpose signs with a key of its own, derived from the gateway's secret
 * key, so a signature made for one kind of link can never be replayed as another.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

function purposeKey(secretKey: Buffer, purpose: string): Buffer {
  return createHash('sha256').update(secretKey).update(purpose).digest();
}

export function linkSignature(
  secretKey: Buffer,
  purpose: string,
  subject: string,
  expiresAt: number,
): string {
  return createHmac('sha256', purposeKey(secretKey, purpose))
    .update(`${subject}.${expiresAt}`)
    .digest('base64url');
}

/** True when `signature` signs (subject, expires) for `purpose` and the link has not expired. */
export function linkSignatureValid(
  secretKey: Buffer,
  purpose: string,
  subject: string,
  expires: string,
  signature: string,
  now = Date.now(),
): boolean {
  const expiresAt = Number(expires);
  if (!/^\d+$/.test(expires) || !Number.isSafeInteger(expiresAt) || expiresAt < now) return false;
  const expected = Buffer.from(linkSignature(secretKey, purpose, subject, expiresAt));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
