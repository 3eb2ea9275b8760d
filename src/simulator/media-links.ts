/**
 * The short-lived download links of media files (docs/cloud-api.md §5.2), signed so that a guessed or
 * expired link is refused as Meta's lookaside links are. One signer serves the media object's `url`
 * (routes-media.ts) and the `url` of a user's media in its webhook (routes-users.ts), so both links open
 * the same download route.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The network's download links are short-lived (docs/cloud-api.md §5.2: about five minutes). */
export const DOWNLOAD_LINK_TTL_MS = 5 * 60_000;

export interface MediaLinks {
  /** A link to the file `id`, valid for DOWNLOAD_LINK_TTL_MS, under `base` (scheme, host and mount prefix). */
  urlFor(base: string, id: string): string;
  /** Whether `expires` and `signature` (as a link carries them) are a valid, unexpired signature of `id`. */
  isValid(id: string, expires: unknown, signature: unknown): boolean;
}

export function mediaLinks(now: () => number): MediaLinks {
  // A key of this process: links do not outlive a restart, as they are meant to be requested afresh.
  const key = randomBytes(32);
  const sign = (id: string, expires: number) =>
    createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  return {
    urlFor(base, id) {
      const expires = now() + DOWNLOAD_LINK_TTL_MS;
      return `${base}/media-download/${id}?expires=${expires}&signature=${sign(id, expires)}`;
    },
    isValid(id, expiresRaw, signature) {
      const expires = Number(expiresRaw);
      const given = Buffer.from(String(signature ?? ''));
      const expected = Buffer.from(sign(id, expires));
      // Compared in constant time: the signature is a secret of the link.
      return (
        Number.isSafeInteger(expires) &&
        expires >= now() &&
        given.length === expected.length &&
        timingSafeEqual(given, expected)
      );
    },
  };
}
