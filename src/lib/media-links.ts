/**
 * Signed links to stored media: `<PUBLIC_URL>/media/<id>?expires=<epoch ms>&signature=<HMAC>`. The link is
 * its own credential (a webhook receiver has no API key to send), so it is signed with a key derived from
 * the gateway's secret key and expires; the stored file itself never moves.
 */
import { linkSignature, linkSignatureValid } from './signed-links.ts';

export const MEDIA_LINK_TTL_MS = 7 * 24 * 3_600_000;

/** The purpose string is the one media links were always signed with, so links already handed out stay valid. */
const PURPOSE = 'switchboard media links v1';

export function mediaLink(publicUrl: string, secretKey: Buffer, mediaId: string, now = Date.now()): string {
  const expiresAt = now + MEDIA_LINK_TTL_MS;
  return `${publicUrl}/media/${mediaId}?expires=${expiresAt}&signature=${linkSignature(secretKey, PURPOSE, mediaId, expiresAt)}`;
}

export function mediaLinkValid(
  secretKey: Buffer,
  mediaId: string,
  expires: string,
  signature: string,
  now = Date.now(),
): boolean {
  return linkSignatureValid(secretKey, PURPOSE, mediaId, expires, signature, now);
}
