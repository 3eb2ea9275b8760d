/**
 * The team page's pending invitations: each link made to add a member and not used yet, with who it is
 * for, the role it gives and when it expires, and a way to end it at once (a link sent to the wrong
 * address, or no longer wanted), as `users invite` makes them. The links themselves are never shown again:
 * only their hash is stored. Every change is the domain's (src/domain/team.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { canManage, isRole } from '../../domain/roles.ts';
import { pendingInvitations, revokeInvitation, type TeamDeps } from '../../domain/team.ts';
import { when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../layout.ts';

export const teamOf = (deps: PortalDeps): TeamDeps => ({
  portal: deps.portal,
  accounts: deps.repos.accounts,
  invites: deps.repos.portalInvites,
});

export async function invitationsCard(deps: PortalDeps, session: SessionContext): Promise<SafeHtml | string> {
  const pending = await pendingInvitations(teamOf(deps), session.accountId, Date.now());
  if (!pending.length) return '';
  const rows = pending.map((i) => {
    const role = i.role ?? 'owner';
    const who = i.email ?? 'whoever opens the link';
    const revoke =
      isRole(role) && canManage(session.role, role)
        ? html`<form method="post" action="/app/team/invitations/${i.ref}/revoke">${csrfField(session.csrfToken)}<button type="submit" class="danger">Revoke<span class="visually-hidden"> the invitation for ${who}</span></button></form>`
        : '';
    return html`<tr><td data-label="For">${who}</td><td data-label="Role">${role}</td><td data-label="Made">${when(i.createdAt)}</td><td data-label="Expires">${when(i.expiresAt)}</td><td data-label="Actions">${revoke}</td></tr>`;
  });
  return html`<section class="card" aria-labelledby="invitations-heading"><h2 id="invitations-heading">Pending invitations</h2>
<p>Links made to add a member and not used yet. Revoking one makes its link stop working at once.</p>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">For</th><th scope="col">Role</th><th scope="col">Made</th><th scope="col">Expires</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
}

export function registerInvitationRevoke(
  portal: FastifyInstance,
  deps: PortalDeps,
  /** The team page again, with the refusal said at its top. */
  refused: (reply: FastifyReply, session: SessionContext, error: GatewayError) => Promise<unknown>,
): void {
  portal.post('/team/invitations/:ref/revoke', async (request, reply) => {
    const session = sessionOf(request);
    const ref = param(request.params, 'ref');
    try {
      await revokeInvitation(teamOf(deps), session.accountId, ref, session.role, Date.now());
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== 400) throw error;
      return refused(reply, session, error);
    }
    return reply.redirect('/app/team?notice=invitation-revoked', 303);
  });
}
