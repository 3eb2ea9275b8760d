/**
 * /app/profile: the signed-in user's own page, open to every role: who they are in which account, and the
 * time zone they read times in (the browser's by default).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { chooseTimeZone, TIME_ZONES } from '../../domain/time-zones.ts';
import { select } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';

function profilePage(
  reply: FastifyReply,
  session: SessionContext,
  options: { status?: number; notice?: string | undefined; zone?: string; error?: string } = {},
) {
  const body = html`<section class="card"><dl class="facts"><dt>Email</dt><dd>${session.email}</dd>
<dt>Account</dt><dd>${session.accountName}</dd><dt>Role</dt><dd>${session.role}</dd></dl></section>
<section class="card" aria-labelledby="zone-heading"><h2 id="zone-heading">Time zone</h2>
<p>Times are shown in this zone on every page (with the page script; without it, in UTC).</p>
<form method="post" action="/app/profile" class="filters" novalidate>${csrfField(session.csrfToken)}
${select({ name: 'timeZone', label: 'Show times in', value: options.zone ?? session.timeZone ?? '', error: options.error, options: [['', "This browser's time zone"], ...TIME_ZONES.map((z): [string, string] => [z, z])] })}
<div class="field"><button type="submit">Save</button></div></form></section>`;
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page({ title: 'Your profile', session, section: 'profile', body, notice: options.notice }));
}

export function registerProfilePages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/profile', async (request, reply) =>
    profilePage(reply, sessionOf(request), { notice: noticeOf(request.query) }),
  );
  portal.post('/profile', async (request, reply) => {
    const session = sessionOf(request);
    const zone = field(request.body, 'timeZone', 100);
    try {
      await chooseTimeZone(deps.portal, session.userId, zone);
    } catch (error) {
      if (!(error instanceof GatewayError) || error.field !== 'timeZone') throw error;
      return profilePage(reply, session, { status: 400, zone, error: error.message });
    }
    return reply.redirect('/app/profile?notice=time-zone-saved', 303);
  });
}
