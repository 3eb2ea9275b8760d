/**
 * /app/team: the account's members (email, since when, last sign-in), a one-time link to add someone, a
 * one-time link that sets a member's password (a reset), and removing a member after a confirmation,
 * which signs them out everywhere at once. A link is shown once, on the page that made it. Every change
 * is the domain's (src/domain/team.ts), as the command line's `users invite`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { IssuedInvite } from '../../domain/portal-invites.ts';
import type { Member, SessionContext } from '../../domain/ports/portal.ts';
import { canManage, ROLES } from '../../domain/roles.ts';
import { changeRole, inviteMember, listMembers, passwordResetLink, removeMember } from '../../domain/team.ts';
import { type MailOutcome, mailLink } from '../../domain/team-mail.ts';
import { portalInviteLink } from '../../lib/portal-links.ts';
import { copyable, input, select, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { FORM_VALUE_MAX, field, param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { html200 } from './account.ts';
import { invitationsCard, registerInvitationRevoke, teamOf } from './team-invitations.ts';

/** What the signed-in member may do to `m`: a password link for themselves or one they manage; removal. */
function memberActions(m: Member, session: SessionContext): SafeHtml | string {
  const self = m.id === session.userId;
  const manages = canManage(session.role, m.role);
  if (!self && !manages) return '';
  const roleForm = self
    ? ''
    : html`<form method="post" action="/app/team/${m.id}/role" class="role-form">${csrfField(session.csrfToken)}<label for="role-${m.id}" class="visually-hidden">Role of ${m.email}</label><select id="role-${m.id}" name="role">${ROLES.filter((r) => canManage(session.role, r)).map((r) => html`<option value="${r}"${r === m.role ? html` selected` : ''}>${r}</option>`)}</select> <button type="submit" class="secondary">Change role<span class="visually-hidden"> of ${m.email}</span></button></form>`;
  return html`<div class="actions">${roleForm}<form method="post" action="/app/team/${m.id}/reset">${csrfField(session.csrfToken)}<button type="submit" class="secondary">Password link<span class="visually-hidden"> for ${m.email}</span></button></form>${self ? '' : html`<a class="button danger" href="/app/team/${m.id}/remove">Remove<span class="visually-hidden"> ${m.email}</span></a>`}</div>`;
}

async function membersCard(deps: PortalDeps, session: SessionContext): Promise<SafeHtml> {
  const members = await listMembers(teamOf(deps), session.accountId);
  return html`<section class="card" aria-labelledby="members-heading"><h2 id="members-heading">Members</h2>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col">Last sign-in</th><th scope="col">Actions</th></tr></thead>
<tbody>${members.map(
    (
      m,
    ) => html`<tr><td data-label="Email">${m.email}${m.id === session.userId ? html` <span class="hint">(you)</span>` : ''}</td><td data-label="Role">${m.role}</td><td data-label="Member since">${when(m.createdAt)}</td><td data-label="Last sign-in">${m.lastSignInAt === null ? '—' : when(m.lastSignInAt)}</td>
<td data-label="Actions">${memberActions(m, session)}</td></tr>`,
  )}</tbody></table></div></section>`;
}

async function teamPage(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  options: {
    status?: number;
    notice?: string | undefined;
    email?: string;
    emailError?: string;
    roleError?: string;
    error?: string;
  } = {},
) {
  const body = html`${await membersCard(deps, session)}
${await invitationsCard(deps, session)}
<section class="card" aria-labelledby="invite-heading"><h2 id="invite-heading">Add a member</h2>
<p>Makes a one-time link (72 hours) to give to the person (with their email, it is also mailed to them when the gateway has a mail server): opening it, they choose their password and sign in to this account with the role chosen here. <strong>Admin</strong>: everything but adding or removing owners. <strong>Agent</strong>: the inbox, the dashboard, the messages and the contacts. <strong>Developer</strong>: the dashboard, the messages, API keys, webhooks and flows.</p>
<form method="post" action="/app/team" novalidate>${csrfField(session.csrfToken)}
${input({ name: 'email', label: 'Their email (optional)', type: 'email', value: options.email ?? '', error: options.emailError, hint: 'Without one, whoever opens the link chooses it.' })}
${select({ name: 'role', label: 'Role', value: 'agent', error: options.roleError, options: ROLES.filter((r) => canManage(session.role, r)).map((r) => [r, r] as [string, string]) })}
<button type="submit">Make the link</button></form></section>`;
  return html200(
    reply,
    options.status ?? 200,
    page({ title: 'Team', session, section: 'team', notice: options.notice, error: options.error, body }),
  );
}

/** What the page says of the mail of a link: sent, failed with the server's reason, or nothing (no SMTP). */
function mailWords(outcome: MailOutcome, to: string | undefined): SafeHtml | string {
  if (outcome.kind === 'sent')
    return html`<p class="notice" role="status">It was sent by email to <strong>${to ?? ''}</strong>.</p>`;
  if (outcome.kind === 'failed')
    return html`<div class="alert" role="alert"><p>The email to ${to ?? ''} could not be sent (${outcome.reason}): give them the link yourself.</p></div>`;
  return '';
}

/** Shows the link; when it is for an email and the gateway has a mail server, mails it there too. */
async function linkPage(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  what: SafeHtml,
  link: IssuedInvite,
  mail: { to: string | undefined; purpose: 'invite' | 'reset' },
) {
  const url = portalInviteLink(deps.config.publicUrl, link.token);
  const outcome: MailOutcome = mail.to
    ? await mailLink(deps.mailer, {
        to: mail.to,
        purpose: mail.purpose,
        accountName: session.accountName,
        link: url,
        expiresAt: link.expiresAt,
      })
    : { kind: 'off' };
  const body = html`${mailWords(outcome, mail.to)}<section class="card"><p>${what}</p>
${copyable(url, 'the link')}
<p>It works once, until ${when(link.expiresAt)}, and is shown only on this page: ${outcome.kind === 'sent' ? 'should the email not arrive, copy it and give it to them yourself.' : 'copy it now and give it to them yourself.'}</p>
<p><a href="/app/team">Back to the team</a></p></section>`;
  return html200(reply, 200, page({ title: 'One-time link', session, section: 'team', body }));
}

export function registerTeamPages(portal: FastifyInstance, deps: PortalDeps): void {
  registerInvitationRevoke(portal, deps, (reply, session, error) =>
    teamPage(deps, reply, session, { status: error.status, error: error.message }),
  );
  portal.get('/team', async (request, reply) =>
    teamPage(deps, reply, sessionOf(request), { notice: noticeOf(request.query) }),
  );

  portal.post('/team', async (request, reply) => {
    const session = sessionOf(request);
    const email = field(request.body, 'email', FORM_VALUE_MAX).trim();
    const role = field(request.body, 'role', 20);
    try {
      const link = await inviteMember(
        teamOf(deps),
        session.accountId,
        { email: email || undefined, role },
        session.role,
        Date.now(),
      );
      const who = email
        ? html`A link for <strong>${email}</strong> to join this account:`
        : html`A link to join this account:`;
      return linkPage(deps, reply, session, who, link, { to: email || undefined, purpose: 'invite' });
    } catch (error) {
      if (!(error instanceof GatewayError) || (error.field !== 'email' && error.field !== 'role'))
        throw error;
      return teamPage(deps, reply, session, {
        status: error.status,
        email,
        ...(error.field === 'email'
          ? { emailError: error.message.replace('`email`', 'this email') }
          : { roleError: error.message.replace(/`role`:? ?/, '') }),
      });
    }
  });

  registerMemberActions(portal, deps);
}

/** A member's new role, from the select in their row. */
function registerRoleChange(portal: FastifyInstance, deps: PortalDeps): void {
  portal.post('/team/:id/role', async (request, reply) => {
    const session = sessionOf(request);
    try {
      await changeRole(
        teamOf(deps),
        session.accountId,
        param(request.params, 'id'),
        field(request.body, 'role', 20),
        {
          userId: session.userId,
          role: session.role,
        },
      );
    } catch (error) {
      if (!(error instanceof GatewayError) || (error.code !== 'conflict' && error.code !== 'invalid_request'))
        throw error;
      return teamPage(deps, reply, session, { status: error.status, error: error.message });
    }
    return reply.redirect('/app/team?notice=role-changed', 303);
  });
}

/** A member's role, password link, and removal after a confirmation. */
function registerMemberActions(portal: FastifyInstance, deps: PortalDeps): void {
  registerRoleChange(portal, deps);
  portal.post('/team/:id/reset', async (request, reply) => {
    const session = sessionOf(request);
    let made: Awaited<ReturnType<typeof passwordResetLink>>;
    try {
      made = await passwordResetLink(
        teamOf(deps),
        session.accountId,
        param(request.params, 'id'),
        { userId: session.userId, role: session.role },
        Date.now(),
      );
    } catch (error) {
      if (!(error instanceof GatewayError) || error.code !== 'conflict') throw error;
      return teamPage(deps, reply, session, { status: 409, error: error.message });
    }
    const { member, link } = made;
    return linkPage(
      deps,
      reply,
      session,
      html`A link that sets a new password for <strong>${member.email}</strong>:`,
      link,
      { to: member.email, purpose: 'reset' },
    );
  });

  portal.get('/team/:id/remove', async (request, reply) => {
    const session = sessionOf(request);
    const id = param(request.params, 'id');
    const member = (await listMembers(teamOf(deps), session.accountId)).find((m) => m.id === id);
    if (!member) throw new GatewayError('not_found', 'There is no such member in this account.');
    const body = html`<section class="card"><p>Remove <strong>${member.email}</strong> from this account? They are signed out at once and can no longer sign in; the account's messages, keys and settings stay.</p>
<div class="actions"><form method="post" action="/app/team/${member.id}/remove">${csrfField(session.csrfToken)}<button type="submit" class="danger">Remove member</button></form>
<a class="button secondary" href="/app/team">Cancel</a></div></section>`;
    return html200(reply, 200, page({ title: 'Remove a member', session, section: 'team', body }));
  });

  portal.post('/team/:id/remove', async (request, reply) => {
    const session = sessionOf(request);
    try {
      await removeMember(teamOf(deps), session.accountId, param(request.params, 'id'), {
        userId: session.userId,
        role: session.role,
      });
    } catch (error) {
      if (!(error instanceof GatewayError) || error.code !== 'conflict') throw error;
      return teamPage(deps, reply, session, { status: 409, error: error.message });
    }
    return reply.redirect('/app/team?notice=member-removed', 303);
  });
}
