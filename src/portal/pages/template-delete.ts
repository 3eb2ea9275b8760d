/**
 * /app/templates/:phone/:id/delete: a template deleted from the portal, after a page that says what goes
 * (the network removes it; messages already sent are not affected; it cannot be undone). The deletion is
 * the domain's (src/domain/templates/manage-templates.ts `deleteTemplate`), as `DELETE` in the API;
 * another account's template, or a number it may not use, is "not found".
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { deleteTemplate } from '../../domain/templates/manage-templates.ts';
import { badge } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { ownedTemplate, templateNotFound } from './template-edit.ts';

export function registerTemplateDelete(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/templates/:phone/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    const phone = param(request.params, 'phone');
    const id = param(request.params, 'id');
    const template = await ownedTemplate(deps, session.accountId, phone, id);
    const body = html`<section class="card"><p>Delete the template <code>${template.name}</code> (${template.language}) ${badge(template.status)} from +${phone}? The network removes it: it can no longer be sent, and messages already sent with it are not affected. This cannot be undone.</p>
<div class="actions"><form method="post" action="/app/templates/${phone}/${id}/delete">${csrfField(session.csrfToken)}<button type="submit" class="danger">Delete template</button></form>
<a class="button secondary" href="/app/templates">Cancel</a></div></section>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Delete template', session, section: 'templates', body }));
  });

  portal.post('/templates/:phone/:id/delete', async (request, reply) => {
    const session = sessionOf(request);
    try {
      await deleteTemplate(
        deps.templates,
        session.accountId,
        param(request.params, 'phone'),
        param(request.params, 'id'),
      );
    } catch (error) {
      // A number the account may not use, or a template that is not its own, is the same "not found".
      if (
        error instanceof GatewayError &&
        (error.status === 404 || error.status === 400 || error.status === 403)
      )
        throw templateNotFound();
      throw error;
    }
    return reply.redirect('/app/templates?notice=template-deleted', 303);
  });
}
