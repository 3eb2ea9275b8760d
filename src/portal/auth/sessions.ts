/**
 * Sessions: a random 32-byte token in the `sb_session` cookie (HttpOnly, SameSite=Lax, Path=/app, Secure
 * over https), stored only as its SHA-256 with an idle expiry that moves forward while the session is
 * used. A stolen database therefore holds no usable session.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PortalStore, SessionContext } from '../../domain/ports/portal.ts';

export const SESSION_COOKIE = 'sb_session';
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
/** Extending the expiry costs a write; once a minute per session is often enough for a 7-day window. */
const TOUCH_EVERY_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Cookies get `Secure` when the browser reached us over https, or the public address is https. */
export function cookieOptions(request: FastifyRequest, publicUrl: string) {
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/app',
    secure: request.protocol === 'https' || publicUrl.startsWith('https:'),
  };
}

export async function startSession(
  repo: PortalStore,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; accountId: string },
  publicUrl: string,
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  await repo.createSession({
    tokenHash: hashToken(token),
    userId: user.id,
    accountId: user.accountId,
    csrfToken: randomBytes(32).toString('base64url'),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_IDLE_MS,
  });
  reply.setCookie(SESSION_COOKIE, token, {
    ...cookieOptions(request, publicUrl),
    maxAge: SESSION_IDLE_MS / 1000,
  });
}

/** The session named by the request's cookie, if it is live; its expiry is pushed forward. */
export async function loadSession(
  repo: PortalStore,
  request: FastifyRequest,
): Promise<SessionContext | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (!token || token.length > 100) return null;
  const now = Date.now();
  const session = await repo.findLiveSession(hashToken(token), now);
  if (!session) return null;
  if (now - session.lastSeenAt > TOUCH_EVERY_MS)
    await repo.touchSession(session.tokenHash, now, SESSION_IDLE_MS);
  return session;
}

export async function endSession(
  repo: PortalStore,
  request: FastifyRequest,
  reply: FastifyReply,
  publicUrl: string,
): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token && token.length <= 100) await repo.deleteSession(hashToken(token));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, publicUrl));
}
