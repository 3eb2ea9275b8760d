/**
 * CSRF protection: every form carries a hidden `_csrf` field, and every POST is refused (403) unless the
 * field matches. Signed in, the token is the session's own. Before sign-in (the sign-in and sign-up forms)
 * it is a random token also set in the `sb_csrf` cookie (double submit), so another site cannot sign a
 * browser in to an account of its choosing.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions } from './sessions.ts';

export const CSRF_FIELD = '_csrf';
const PRE_SESSION_COOKIE = 'sb_csrf';

export function sameToken(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The pre-session token for a sign-in or sign-up form, set in its cookie on first use. */
export function preSessionToken(request: FastifyRequest, reply: FastifyReply, publicUrl: string): string {
  const existing = request.cookies[PRE_SESSION_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(PRE_SESSION_COOKIE, token, cookieOptions(request, publicUrl));
  return token;
}

export function preSessionTokenOf(request: FastifyRequest): string | undefined {
  return request.cookies[PRE_SESSION_COOKIE];
}
