/**
 * `/app/invite/<token>`: a one-time link into an account's portal (src/domain/portal-invites.ts). Opening it
 * shows a form and changes nothing, so a mail scanner that follows links cannot use it up; submitting a
 * password uses it and signs the person in. A used, expired or unknown link is a 410 that says how to get
 * a new one. The token is in the path: the log scrubs it (src/http/log-redaction.ts) and these pages send
 * no referrer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findLiveInvite, isEmail, normalizeEmail, redeemPortalInvite } from '../../domain/portal-invites.ts';
import type { LiveInvite } from '../../domain/ports/portal-invites.ts';
import { preSessionToken } from '../auth/csrf.ts';
import { PASSWORD_MIN_LENGTH, passwordProblem } from '../auth/passwords.ts';
import { startSession } from '../auth/sessions.ts';
import { input } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { FORM_VALUE_MAX, field } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { EMAIL_PROBLEM, html200, preSession } from './account.ts';
import { sendErrorPage } from './errors.ts';

/** Tokens are 43 base64url characters; anything else is not one, and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const GONE =
  'This link has expired or was used already. A member of the account can make a new one on its Team page, or whoever runs this Switchboard with its command line (users invite).';

type Errors = Partial<Record<'email' | 'password', string>>;

function invitePage(token: string, csrf: string, invite: LiveInvite, email: string, errors: Errors = {}) {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Set your password',
    // A link made for an email shows no email field to put its error next to.
    error:
      invite.email !== null && errors.email
        ? errors.email
        : failed
          ? 'Some fields need attention; see the messages next to them.'
          : undefined,
    body: html`<section class="card">
<p>You are joining <strong>${invite.accountName}</strong> on Switchboard. This link works once.</p>
<form method="post" action="/app/invite/${token}" novalidate>
${csrfField(csrf)}
${
  invite.email === null
    ? input({
        name: 'email',
        label: 'Email',
        type: 'email',
        value: email,
        error: errors.email,
        required: true,
        autocomplete: 'email',
      })
    : html`<p>Email: <strong>${invite.email}</strong></p>`
}
${input({ name: 'password', label: 'Password', type: 'password', error: errors.password, required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN_LENGTH} characters.` })}
<button type="submit">Set password</button>
</form>
</section>`,
  });
}

/** The link's token, when the path holds something shaped like one. */
function tokenOf(request: FastifyRequest): string | undefined {
  const token = field(request.params, 'token', 100);
  return TOKEN.test(token) ? token : undefined;
}

function gone(request: FastifyRequest, reply: FastifyReply) {
  return sendErrorPage(request, reply, 410, GONE);
}

export function registerInvitePages(portal: FastifyInstance, deps: PortalDeps): void {
  const invites = deps.repos.portalInvites;
  // The token is in this page's address: no link or asset request may carry it away as a referrer.
  const noReferrer = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('referrer-policy', 'no-referrer');
  };

  portal.get('/invite/:token', { onRequest: noReferrer }, async (request, reply) => {
    const token = tokenOf(request);
    const invite = token && (await findLiveInvite(invites, token, Date.now()));
    if (!token || !invite) return gone(request, reply);
    const csrf = preSessionToken(request, reply, deps.config.publicUrl);
    return html200(reply, 200, invitePage(token, csrf, invite, ''));
  });

  portal.post('/invite/:token', { ...preSession, onRequest: noReferrer }, async (request, reply) => {
    const token = tokenOf(request);
    const invite = token && (await findLiveInvite(invites, token, Date.now()));
    if (!token || !invite) return gone(request, reply);
    const email = invite.email ?? normalizeEmail(field(request.body, 'email', FORM_VALUE_MAX));
    const password = field(request.body, 'password', FORM_VALUE_MAX);
    const csrf = preSessionToken(request, reply, deps.config.publicUrl);
    const errors: Errors = {};
    if (!isEmail(email)) errors.email = EMAIL_PROBLEM;
    const weak = passwordProblem(password);
    if (weak) errors.password = weak;
    if (Object.keys(errors).length)
      return html200(reply, 400, invitePage(token, csrf, invite, email, errors));

    const outcome = await redeemPortalInvite(
      invites,
      token,
      { email, passwordHash: await deps.passwords.hash(password) },
      Date.now(),
    );
    if (outcome.kind === 'gone') return gone(request, reply);
    if (outcome.kind === 'email-taken') {
      const taken = {
        email:
          'This email has a portal user already; choose another. (A member who forgot their password asks for a link under “Forgot your password?” at sign-in, or gets one from a member of their account.)',
      };
      return html200(reply, 409, invitePage(token, csrf, invite, email, taken));
    }
    const { user } = outcome;
    await startSession(
      deps.portal,
      request,
      reply,
      { id: user.userId, accountId: user.accountId },
      deps.config.publicUrl,
    );
    // The dashboard: every role may open it (src/domain/roles.ts), settings not.
    return reply.redirect('/app/dashboard?notice=password-set', 303);
  });
}
