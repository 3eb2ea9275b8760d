/**
 * Sign-up (a new Switchboard account and its first user), sign-in with lockout, sign-out. The forms carry
 * the pre-session CSRF token; sign-out carries the session's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEmail, normalizeEmail } from '../../domain/portal-invites.ts';
import { preSessionToken } from '../auth/csrf.ts';
import { beginAttempt, LOCKOUT_MS, lockoutMessage } from '../auth/lockout.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '../auth/passwords.ts';
import { endSession, startSession } from '../auth/sessions.ts';
import { input } from '../components.ts';
import type { PortalDeps } from '../deps.ts';
import { FORM_VALUE_MAX, field, safeNext } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';

/** The form's sentence for an address the portal does not accept. */
export const EMAIL_PROBLEM = 'Enter an email address like name@example.com.';
const NAME_MAX = 100;
/** Route options of a form that carries the pre-session CSRF token (src/portal/auth/csrf.ts). */
export const preSession = { config: { portalPreSession: true } };

type Errors = Partial<Record<'email' | 'password' | 'businessName', string>>;

function signUpPage(token: string, values: { email?: string; businessName?: string }, errors: Errors = {}) {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Create your Switchboard account',
    error: failed ? 'Some fields need attention; see the messages next to them.' : undefined,
    body: html`<section class="card">
<form method="post" action="/app/sign-up" novalidate>
${csrfField(token)}
${input({ name: 'businessName', label: 'Business name', value: values.businessName ?? '', error: errors.businessName, required: true, autocomplete: 'organization' })}
${input({ name: 'email', label: 'Email', type: 'email', value: values.email ?? '', error: errors.email, required: true, autocomplete: 'email' })}
${input({ name: 'password', label: 'Password', type: 'password', error: errors.password, required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN_LENGTH} characters.` })}
<button type="submit">Create account</button>
</form>
</section>
<p>Already have an account? <a href="/app/sign-in">Sign in</a>.</p>`,
  });
}

function signInPage(
  signUpOpen: boolean,
  token: string,
  email: string,
  next: string,
  error?: string,
  notice?: string,
) {
  return page({
    title: 'Sign in to Switchboard',
    error,
    notice,
    body: html`<section class="card">
<form method="post" action="/app/sign-in">
${csrfField(token)}
<input type="hidden" name="next" value="${next}">
${input({ name: 'email', label: 'Email', type: 'email', value: email, required: true, autocomplete: 'email' })}
${input({ name: 'password', label: 'Password', type: 'password', required: true, autocomplete: 'current-password' })}
<button type="submit">Sign in</button>
</form>
<p><a href="/app/forgot-password">Forgot your password?</a></p>
</section>
${signUpOpen ? html`<p>New here? <a href="/app/sign-up">Create an account</a>.</p>` : ''}`,
  });
}

/** Answers that an email is taken, per address of the network, in an hour (the sign-in lockout's count). */
const TAKEN_ANSWERS = { maxFailures: 10, windowMs: 3_600_000, lockoutMs: 3_600_000 };

function checkSignUp(email: string, password: string, businessName: string): Errors {
  const errors: Errors = {};
  if (!isEmail(email)) errors.email = EMAIL_PROBLEM;
  const weak = passwordProblem(password);
  if (weak) errors.password = weak;
  if (businessName === '' || [...businessName].length > NAME_MAX)
    errors.businessName = `Enter the business name (1 to ${NAME_MAX} characters).`;
  return errors;
}

export function html200(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** A signed-in user who opens sign-up or sign-in goes to the portal instead. */
function signedInRedirect(request: FastifyRequest, reply: FastifyReply) {
  return request.portalSession ? reply.redirect('/app/dashboard', 303) : undefined;
}

/** Sign-up closed (SIGN_UP=closed): says where accounts come from instead, for the GET and the POST. */
function signUpClosed(reply: FastifyReply) {
  const body = page({
    title: 'Sign-up is closed',
    body: html`<section class="card"><p>This Switchboard does not take new accounts from its sign-up page. Ask whoever runs it for an account or an invitation: they make one with its command line (<code>npm run cli -- accounts create --name &lt;business&gt; --email &lt;you&gt;</code>), or a member of an existing account invites you from its Team page.</p>
<p><a href="/app/sign-in">Sign in</a> if you already have an account.</p></section>`,
  });
  return html200(reply, 403, body);
}

function registerSignUp(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/sign-up', async (request, reply) => {
    if (!deps.config.signUpOpen) return signedInRedirect(request, reply) ?? signUpClosed(reply);
    return (
      signedInRedirect(request, reply) ??
      html200(reply, 200, signUpPage(preSessionToken(request, reply, deps.config.publicUrl), {}))
    );
  });

  portal.post('/sign-up', preSession, async (request, reply) => {
    if (!deps.config.signUpOpen) return signUpClosed(reply);
    const email = normalizeEmail(field(request.body, 'email', FORM_VALUE_MAX));
    const password = field(request.body, 'password', FORM_VALUE_MAX);
    const businessName = field(request.body, 'businessName', FORM_VALUE_MAX).trim();
    const token = preSessionToken(request, reply, deps.config.publicUrl);
    const errors = checkSignUp(email, password, businessName);
    if (Object.keys(errors).length)
      return html200(reply, 400, signUpPage(token, { email, businessName }, errors));
    const created = await deps.portal.signUp(
      { email, passwordHash: await deps.passwords.hash(password), businessName },
      Date.now(),
    );
    if (!created) {
      // Saying an email is taken tells whether it has an account: told a few times an hour to one address
      // of the network, not as a way to list who has one (the forgotten-password page tells nobody).
      const { attempt } = await deps.portal.countAttempt(
        `sign-up-taken ${request.ip}`,
        Date.now(),
        TAKEN_ANSWERS,
      );
      if (attempt > TAKEN_ANSWERS.maxFailures) {
        const later = {
          email: 'Too many sign-ups from here with emails that have accounts; try again in an hour.',
        };
        return html200(reply, 429, signUpPage(token, { email, businessName }, later));
      }
      const taken = { email: 'An account already uses this email; sign in instead.' };
      return html200(reply, 409, signUpPage(token, { email, businessName }, taken));
    }
    await startSession(deps.portal, request, reply, created.user, deps.config.publicUrl);
    return reply.redirect('/app/settings?notice=welcome', 303);
  });
}

function registerSignIn(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/sign-in', async (request, reply) => {
    const next = safeNext(field(request.query, 'next', 500));
    const token = preSessionToken(request, reply, deps.config.publicUrl);
    return (
      signedInRedirect(request, reply) ??
      html200(
        reply,
        200,
        signInPage(deps.config.signUpOpen, token, '', next, undefined, noticeOf(request.query)),
      )
    );
  });

  portal.post('/sign-in', preSession, async (request, reply) => {
    const email = normalizeEmail(field(request.body, 'email', FORM_VALUE_MAX));
    const password = field(request.body, 'password', FORM_VALUE_MAX);
    const next = safeNext(field(request.body, 'next', 500));
    const token = preSessionToken(request, reply, deps.config.publicUrl);
    // Counted before the password is checked (src/portal/auth/lockout.ts): parallel guesses cannot overtake it.
    const attempt = await beginAttempt(deps.portal, email);
    if (attempt.refusedUntil !== undefined)
      return html200(
        reply,
        429,
        signInPage(deps.config.signUpOpen, token, email, next, lockoutMessage(attempt.refusedUntil)),
      );
    const user = await deps.portal.findUserByEmail(email);
    const { passwords } = deps;
    // No password is longer than a new one may be: one that is is wrong, without the cost of hashing it.
    const ok =
      password.length <= PASSWORD_MAX_LENGTH &&
      (await passwords.verify(password, user?.passwordHash ?? (await passwords.forUnknownUser())));
    if (!user || !ok) {
      const locked = attempt.lockedIfWrong;
      if (locked)
        return html200(
          reply,
          429,
          signInPage(deps.config.signUpOpen, token, email, next, lockoutMessage(locked)),
        );
      const warning = attempt.nextLocks
        ? ` One more wrong password locks sign-in for this email for ${LOCKOUT_MS / 60_000} minutes.`
        : '';
      const wrong = `The email or the password is not right.${warning}`;
      return html200(reply, 401, signInPage(deps.config.signUpOpen, token, email, next, wrong));
    }
    await deps.portal.clearFailures(email);
    await startSession(deps.portal, request, reply, user, deps.config.publicUrl);
    return reply.redirect(next, 303);
  });
}

export function registerAccountPages(portal: FastifyInstance, deps: PortalDeps): void {
  registerSignUp(portal, deps);
  registerSignIn(portal, deps);
  portal.post('/sign-out', async (request, reply) => {
    await endSession(deps.portal, request, reply, deps.config.publicUrl);
    return reply.redirect('/app/sign-in?notice=signed-out', 303);
  });
}
