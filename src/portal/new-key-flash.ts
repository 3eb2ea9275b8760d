/**
 * A new API key is shown once, on the page after its creation, with POST-redirect-GET: the POST creates
 * the key and redirects; the key travels to the next GET in a cookie sealed with the install's secret
 * key (AES-GCM, src/lib/sealed-secrets.ts), bound to the account and to a minute, and cleared as soon as
 * it is shown. Reloading the page creates nothing and shows the key no more; the key is never stored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decryptSecret, encryptSecret } from '../lib/sealed-secrets.ts';
import { cookieOptions } from './auth/sessions.ts';

const COOKIE = 'sb_new_key';
const LIFETIME_MS = 60_000;
const PATH = '/app/settings';

interface Flash {
  accountId: string;
  key: string;
  until: number;
}

export function flashNewKey(
  reply: FastifyReply,
  request: FastifyRequest,
  options: { accountId: string; key: string; secretKey: Buffer; publicUrl: string },
): void {
  const flash: Flash = { accountId: options.accountId, key: options.key, until: Date.now() + LIFETIME_MS };
  const sealed = encryptSecret(JSON.stringify(flash), options.secretKey);
  reply.setCookie(COOKIE, sealed, {
    ...cookieOptions(request, options.publicUrl),
    path: PATH,
    maxAge: LIFETIME_MS / 1000,
  });
}

/** The key created by this account a moment ago, once; the cookie is cleared whatever it held. */
export function takeNewKey(
  reply: FastifyReply,
  request: FastifyRequest,
  options: { accountId: string; secretKey: Buffer; publicUrl: string },
): string | undefined {
  const sealed = request.cookies[COOKIE];
  if (!sealed) return undefined;
  reply.clearCookie(COOKIE, { ...cookieOptions(request, options.publicUrl), path: PATH });
  try {
    const flash = JSON.parse(decryptSecret(sealed, options.secretKey)) as Partial<Flash>;
    const mine =
      flash.accountId === options.accountId && typeof flash.until === 'number' && flash.until >= Date.now();
    return mine && typeof flash.key === 'string' ? flash.key : undefined;
  } catch {
    // Altered, from another install, or not ours: nothing to show.
    return undefined;
  }
}
