/**
 * Signed links to stored media: `<PUBLIC_URL>/media/<id>?expires=<epoch ms>&signature=<HMAC>`. The link is
 * its own credential (a webhook receiver has no API key to send), so it is signed with a key derived from
 * the gateway's secret key and expires; the stored file itself never moves.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const MEDIA_LINK_TTL_MS = 7 * 24 * 3_600_000;

function linkKey(secretKey: Buffer): Buffer {
  // A key of its own, so a link signature can never be replayed as any other signature of the gateway.
  return createHash('sha256').update(secretKey).update('switchboard media links v1').digest();
}

function sign(secretKey: Buffer, mediaId: string, expiresAt: number): string {
  return createHmac('sha256', linkKey(secretKey)).update(`${mediaId}.${expiresAt}`).digest('base64url');
}

export function mediaLink(publicUrl: string, secretKey: Buffer, mediaId: string, now = Date.now()): string {
  const expiresAt = now + MEDIA_LINK_TTL_MS;
  return `${publicUrl}/media/${mediaId}?expires=${expiresAt}&signature=${sign(secretKey, mediaId, expiresAt)}`;
}

export function mediaLinkValid(
  secretKey: Buffer,
  mediaId: string,
  expires: string,
  signature: string,
  now = Date.now(),
): boolean {
  const expiresAt = Number(expires);
  if (!Number.isSafeInteger(expiresAt) || expiresAt < now) return false;
  const expected = Buffer.from(sign(secretKey, mediaId, expiresAt));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
