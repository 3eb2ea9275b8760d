/**
 * The customer portal under /app: one Fastify plugin, registered once by src/app/wire-http.ts with the prefix
 * `/app`. Cookies and form bodies are parsed in this scope only, and its own error and not-found pages
 * are HTML, so the JSON API outside is unchanged. Every page below the sign-in guard has a live session.
 */
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../domain/errors.ts';
import type { SessionContext } from '../domain/ports/portal.ts';
import { canOpen } from '../domain/roles.ts';
import { firstAjvMessage } from '../lib/request-validation.ts';
import { CSRF_FIELD, preSessionTokenOf, sameToken } from './auth/csrf.ts';
import { loadSession } from './auth/sessions.ts';
import type { PortalDeps } from './deps.ts';
import { safeNext } from './forms.ts';
import { CsrfRefused } from './multipart-form.ts';
import { registerAccountPages } from './pages/account.ts';
import { registerCampaignPages } from './pages/campaigns.ts';
import { registerContactPages } from './pages/contacts.ts';
import { registerDashboard } from './pages/dashboard.ts';
import { CSRF_REFUSED, sendErrorPage } from './pages/errors.ts';
import { registerFlowPages } from './pages/flows.ts';
import { registerForgotPasswordPages } from './pages/forgot-password.ts';
import { registerInboxPages } from './pages/inbox.ts';
import { registerInvitePages } from './pages/invite.ts';
import { registerMessagePages } from './pages/messages.ts';
import { registerProfilePages } from './pages/profile.ts';
import { registerSettingsPages } from './pages/settings.ts';
import { registerTeamPages } from './pages/team.ts';
import { registerTemplatePages } from './pages/templates.ts';
import { registerWebhookPages } from './pages/webhooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Sign-in, sign-up and a forgotten password: their forms carry the pre-session CSRF token (auth/csrf.ts). */
    portalPreSession?: boolean;
    /** A form that may carry a file: sent multipart, its token is checked by its handler (multipart-form.ts). */
    portalMultipart?: boolean;
  }
}

const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
const CSS = asset('portal.css');
const JS = asset('portal.js');
const TEMPLATE_PREVIEW_JS = asset('template-preview.js');
const ICON = asset('favicon.svg');

/** Only same-origin styles, scripts, images (and the template form's preview of a file chosen on this computer), sound and video, and form targets; never framed. */
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' blob:; media-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function csrfField(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? Reflect.get(body, CSRF_FIELD) : undefined;
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof CsrfRefused) return sendErrorPage(request, reply, 403, CSRF_REFUSED);
  if (error instanceof GatewayError) return sendErrorPage(request, reply, error.status, error.message);
  if (error.validation) {
    return sendErrorPage(request, reply, 400, firstAjvMessage(error.validation));
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return sendErrorPage(request, reply, 413, 'The form is larger than this page accepts.');
  if (status === 415) return sendErrorPage(request, reply, 415, 'Submit this page through its form.');
  if (status >= 400 && status < 500) return sendErrorPage(request, reply, status, error.message);
  request.log.error({ err: error }, 'unhandled portal error');
  return sendErrorPage(request, reply, 500, 'The failure was logged; try again in a moment.');
}

/** The portal's own stylesheet, script and icon, cacheable: they hold nothing of anyone's. */
function registerAssets(portal: FastifyInstance): void {
  portal.get('/assets/portal.css', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CSS),
  );
  portal.get('/assets/portal.js', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(JS),
  );
  portal.get('/assets/template-preview.js', async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/javascript; charset=utf-8')
      .send(TEMPLATE_PREVIEW_JS),
  );
  portal.get('/assets/favicon.svg', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(ICON),
  );
}

/** The portal section a path belongs to: `/app/messages.csv?tab=in` → `messages`. */
function sectionOf(url: string): string {
  return url.slice('/app/'.length).split(/[/?.]/)[0] ?? '';
}

/**
 * Pages behind sign-in: without a session, the sign-in page (and back after it); with one, only what the
 * member's role opens (src/domain/roles.ts), every page and every action behind it.
 */
async function signedInOnly(request: FastifyRequest, reply: FastifyReply) {
  const session = request.portalSession;
  if (!session) {
    const next = encodeURIComponent(safeNext(request.url));
    return reply.redirect(`/app/sign-in?next=${next}`, 303);
  }
  if (!canOpen(session.role, sectionOf(request.url)))
    return sendErrorPage(
      request,
      reply,
      403,
      `As ${session.role}, you cannot open this page. An owner or admin of the account can change what you may do.`,
    );
}

/** The signed-in session, with the count the menu's Inbox link shows to members who may open the inbox. */
async function sessionWithInboxCount(
  deps: PortalDeps,
  request: FastifyRequest,
): Promise<SessionContext | null> {
  const session = await loadSession(deps.portal, request);
  if (session && canOpen(session.role, 'inbox'))
    session.inboxUnread = await deps.inbox.inbox.unreadTotal(session.accountId);
  return session;
}

export async function portalPlugin(portal: FastifyInstance, deps: PortalDeps): Promise<void> {
  // The portal is not part of the JSON API: kept out of its OpenAPI document.
  portal.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await portal.register(cookie);
  await portal.register(formbody);
  // Parses nothing by itself: only a route that reads its parts (portalMultipart) takes a multipart body.
  await portal.register(multipart);
  portal.decorateRequest('portalSession', null);
  portal.setErrorHandler(handleError);
  portal.setNotFoundHandler((request, reply) => sendErrorPage(request, reply, 404, 'There is no such page.'));

  portal.addHook('onRequest', async (_request, reply) => {
    reply
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      // Pages show keys and secrets: no cache may keep them.
      .header('cache-control', 'no-store');
  });
  portal.addHook('preHandler', async (request, reply) => {
    if (request.url.startsWith('/app/assets/')) return;
    request.portalSession = await sessionWithInboxCount(deps, request);
    if (request.method !== 'POST') return;
    // Streamed, so not parsed yet: the handler checks the token as the body's first part, before any file.
    if (request.routeOptions.config?.portalMultipart && request.isMultipart()) return;
    const expected = request.routeOptions.config?.portalPreSession
      ? preSessionTokenOf(request)
      : request.portalSession?.csrfToken;
    if (!sameToken(csrfField(request.body), expected))
      return sendErrorPage(request, reply, 403, CSRF_REFUSED);
  });

  registerAssets(portal);
  portal.get('/', async (request, reply) =>
    reply.redirect(request.portalSession ? '/app/dashboard' : '/app/sign-in', 303),
  );

  registerAccountPages(portal, deps);
  registerForgotPasswordPages(portal, deps);
  registerInvitePages(portal, deps);

  await portal.register(async (signedIn) => {
    signedIn.addHook('preHandler', signedInOnly);
    registerSettingsPages(signedIn, deps);
    registerDashboard(signedIn, deps);
    registerInboxPages(signedIn, deps);
    registerProfilePages(signedIn, deps);
    registerTeamPages(signedIn, deps);
    registerMessagePages(signedIn, deps);
    registerContactPages(signedIn, deps);
    registerTemplatePages(signedIn, deps);
    registerCampaignPages(signedIn, deps);
    registerFlowPages(signedIn, deps);
    registerWebhookPages(signedIn, deps);
  });
}
