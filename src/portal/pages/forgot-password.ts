/**
 * /app/forgot-password (docs/portal.md, "Forgotten passwords"): a member who forgot their password asks
 * for a password link by email (src/domain/password-recovery.ts). Every valid email gets the same answer,
 * at once; the link is looked up and mailed after it. Without a mail server the page says who can make
 * the link instead. The form carries the pre-session CSRF token, like sign-in's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { countPasswordLinkRequest, sendPasswordLink } from '../../domain/password-recovery.ts';
import { isEmail, normalizeEmail } from '../../domain/portal-invites.ts';
import { portalInviteLink } from '../../lib/portal-links.ts';
import { preSessionToken } from '../auth/csrf.ts';
import { input } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { FORM_VALUE_MAX, field } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { EMAIL_PROBLEM, html200, preSession } from './account.ts';

const TITLE = 'Forgot your password?';

const withoutMail = html`<section class="card">
<p>This gateway sends no email, so it cannot mail you a link. An owner or admin of your account can make
you a password link on its Team page; whoever runs the gateway can print one with
<code>npm run cli -- users invite --account &lt;accountId&gt; --email &lt;your email&gt;</code>.</p>
</section>
<p><a href="/app/sign-in">Back to sign-in</a></p>`;

function formPage(token: string, email: string, problem?: string, notice?: string) {
  return page({
    title: TITLE,
    notice,
    error: problem ? 'The email needs attention; see the message next to it.' : undefined,
    body: html`<section class="card">
<p>Enter the email you sign in with. If a member has it, a link to choose a new password is mailed to it.</p>
<form method="post" action="/app/forgot-password" novalidate>
${csrfField(token)}
${input({ name: 'email', label: 'Email', type: 'email', value: email, error: problem, required: true, autocomplete: 'email' })}
<button type="submit">Email me a link</button>
</form>
</section>
<p><a href="/app/sign-in">Back to sign-in</a></p>`,
  });
}

function limitedPage(token: string, email: string, until: number) {
  const at = new Date(until).toISOString().slice(11, 16);
  return formPage(
    token,
    email,
    `Three links were asked for this email within the hour: ask again after ${at} UTC, or use the last link mailed.`,
  );
}

/** Looks the member up and mails the link after the answer went out; a failure is logged, never the link. */
function sendAfterAnswer(deps: PortalDeps, request: FastifyRequest, email: string, now: number): void {
  const recovery = {
    portal: deps.portal,
    accounts: deps.repos.accounts,
    invites: deps.repos.portalInvites,
    mailer: deps.mailer,
    linkOf: (token: string) => portalInviteLink(deps.config.publicUrl, token),
  };
  sendPasswordLink(recovery, email, now)
    .then((outcome) => {
      if (outcome.kind === 'failed')
        request.log.warn({ reason: outcome.reason }, 'a password link asked for could not be mailed');
    })
    .catch((error: unknown) => request.log.error({ err: error }, 'a password link asked for was not made'));
}

export function registerForgotPasswordPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/forgot-password', async (request, reply) => {
    if (request.portalSession) return reply.redirect('/app/dashboard', 303);
    if (!deps.mailer) return html200(reply, 200, page({ title: TITLE, body: withoutMail }));
    return html200(reply, 200, formPage(preSessionToken(request, reply, deps.config.publicUrl), ''));
  });

  portal.post('/forgot-password', preSession, async (request, reply) => {
    if (!deps.mailer) return html200(reply, 200, page({ title: TITLE, body: withoutMail }));
    const email = normalizeEmail(field(request.body, 'email', FORM_VALUE_MAX));
    const token = preSessionToken(request, reply, deps.config.publicUrl);
    if (!isEmail(email)) return html200(reply, 400, formPage(token, email, EMAIL_PROBLEM));
    const now = Date.now();
    const { refusedUntil } = await countPasswordLinkRequest(deps.portal, email, now);
    if (refusedUntil !== undefined) return html200(reply, 429, limitedPage(token, email, refusedUntil));
    sendAfterAnswer(deps, request, email, now);
    return html200(
      reply,
      200,
      formPage(
        token,
        '',
        undefined,
        `If a member signs in with ${email}, a link to choose a new password is on its way there. It works once, for 72 hours.`,
      ),
    );
  });
}
