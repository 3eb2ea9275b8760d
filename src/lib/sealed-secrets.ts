/**
 * Secrets sealed at rest (network access tokens, webhook signing secrets): a leaked database without the
 * gateway's secret key gives none of them.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. The version lets the scheme change later. */
export function encryptSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unrecognised sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * `decryptSecret` for a caller that opens the same few sealed secrets over and over (the webhook
 * dispatcher, once per delivery): each sealed text is opened once and its plain text kept, for at most
 * `max` texts, the oldest dropped first. Keyed by the sealed text itself, so a rotated secret, sealed anew,
 * is never answered from memory. Keeping them adds no new exposure: the key that opens every one of them
 * is in the same memory for the process's whole life.
 */
export function rememberingUnsealer(
  key: Buffer,
  max = 256,
  open: (sealed: string, key: Buffer) => string = decryptSecret,
): (sealed: string) => string {
  const opened = new Map<string, string>();
  return (sealed) => {
    let plain = opened.get(sealed);
    if (plain === undefined) {
      plain = open(sealed, key);
      const oldest = opened.size >= max ? opened.keys().next() : undefined;
      if (oldest && !oldest.done) opened.delete(oldest.value);
      opened.set(sealed, plain);
    }
    return plain;
  };
}
