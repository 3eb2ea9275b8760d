/**
 * /app/templates/:phone/:id/edit: a text template's category and texts changed and submitted for review
 * again, through the API's edit (src/domain/templates/manage-templates.ts `updateTemplate`), so its rules
 * hold here too: which statuses may be edited, how often, that an approved template keeps its category;
 * a refusal is shown at its field. A template with buttons, a media header or a carousel is edited
 * through the API; its page says so. Another account's template is "not found".
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { listTemplates, updateTemplate } from '../../domain/templates/manage-templates.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { badge } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field, param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import {
  contentFields,
  type Form,
  type FormField,
  formFieldOf,
  formOf,
  requestBody,
} from '../templates/template-form.ts';

export const templateNotFound = () =>
  new GatewayError('not_found', 'There is no such template in your account.');

/** The account's template on one of its numbers; anything else is "not found". */
export async function ownedTemplate(
  deps: PortalDeps,
  accountId: string,
  phone: string,
  id: string,
): Promise<TemplateView> {
  const found = await listTemplates(deps.templates, accountId, phone, {}).catch((error) => {
    if (error instanceof GatewayError && error.status < 500) throw templateNotFound();
    throw error;
  });
  const template = found.find((t) => t.id === id);
  if (!template) throw templateNotFound();
  return template;
}

function editPage(
  reply: FastifyReply,
  session: SessionContext,
  t: TemplateView,
  phone: string,
  options: { status?: number; form?: Form; errors?: Partial<Record<FormField, string>>; error?: string } = {},
) {
  const form = options.form ?? formOf(phone, t);
  const body = form
    ? html`<section class="card"><p>The template <code>${t.name}</code> (${t.language}) on +${phone} ${badge(t.status)}. Saving submits it for review again; its name and language never change.</p>
<form method="post" action="/app/templates/${phone}/${t.id}/edit" novalidate>${csrfField(session.csrfToken)}
${contentFields(form, options.errors ?? {})}
<div class="actions"><button type="submit">Submit the change for review</button><a class="button secondary" href="/app/templates">Cancel</a></div>
</form></section>`
    : html`<section class="card"><p>The template <code>${t.name}</code> (${t.language}) has buttons, a media header or cards, which this form does not show: edit it through the API (<code>POST /api/v1/template/${phone}/${t.id}</code>).</p><p><a href="/app/templates">Back to the templates</a></p></section>`;
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page({ title: 'Edit template', session, section: 'templates', error: options.error, body }));
}

export function registerTemplateEdit(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/templates/:phone/:id/edit', async (request, reply) => {
    const session = sessionOf(request);
    const phone = param(request.params, 'phone');
    const t = await ownedTemplate(deps, session.accountId, phone, param(request.params, 'id'));
    return editPage(reply, session, t, phone);
  });

  portal.post('/templates/:phone/:id/edit', async (request, reply) => {
    const session = sessionOf(request);
    const phone = param(request.params, 'phone');
    const t = await ownedTemplate(deps, session.accountId, phone, param(request.params, 'id'));
    const posted = (name: FormField) => field(request.body, name, 10_000);
    const form: Form = {
      phone,
      name: t.name,
      language: t.language,
      category: posted('category'),
      headerText: posted('headerText'),
      headerExample: posted('headerExample'),
      bodyText: posted('bodyText'),
      bodyExamples: posted('bodyExamples'),
      footerText: posted('footerText'),
    };
    try {
      await updateTemplate(deps.templates, session.accountId, phone, t.id, requestBody(form));
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      const target = formFieldOf(error.field);
      return editPage(reply, session, t, phone, {
        status: error.status,
        form,
        errors: target ? { [target]: error.message } : {},
        error: target ? 'The change was not submitted; see the message next to the field.' : error.message,
      });
    }
    return reply.redirect('/app/templates?notice=template-edited', 303);
  });
}
