/**
 * /app/templates: the account's templates on every number it may use (status, rejected reason, language,
 * a preview), and a form that creates one through the same domain function as the API, so it is checked
 * the same way and a refusal shows the API's message next to the field it names.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { createTemplate, listTemplates } from '../../domain/templates/manage-templates.ts';
import type { TemplateBodyInput } from '../../domain/templates/template-body.ts';
import { TEMPLATE_CATEGORIES } from '../../domain/templates/template-body.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { badge, input, select, textarea, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { templatePreview } from '../template-preview.ts';
import { registerTemplateDelete } from './template-delete.ts';

const FORM_FIELDS = [
  'phone',
  'name',
  'language',
  'category',
  'headerText',
  'headerExample',
  'bodyText',
  'bodyExamples',
  'footerText',
] as const;
type FormField = (typeof FORM_FIELDS)[number];
type Form = Record<FormField, string>;

/** The API's field names (what its errors name) → this form's inputs. */
function formFieldOf(apiField: string | undefined): FormField | undefined {
  if (!apiField) return undefined;
  if (apiField === 'phone_number') return 'phone';
  if (apiField === 'name' || apiField === 'language' || apiField === 'category') return apiField;
  if (apiField === 'component.header.example') return 'headerExample';
  if (apiField.startsWith('component.header')) return 'headerText';
  if (apiField.startsWith('component.body.examples')) return 'bodyExamples';
  if (apiField.startsWith('component.body')) return 'bodyText';
  if (apiField.startsWith('component.footer')) return 'footerText';
  return undefined;
}

function requestBody(form: Form): TemplateBodyInput {
  const examples = form.bodyExamples
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return {
    name: form.name.trim(),
    language: form.language.trim(),
    category: form.category,
    component: {
      ...(form.headerText.trim()
        ? {
            header: {
              format: 'TEXT',
              text: form.headerText.trim(),
              ...(form.headerExample.trim() ? { example: form.headerExample.trim() } : {}),
            },
          }
        : {}),
      body: { text: form.bodyText, ...(examples.length ? { examples } : {}) },
      ...(form.footerText.trim() ? { footer: { text: form.footerText.trim() } } : {}),
    },
  };
}

async function phonesOf(deps: PortalDeps, accountId: string): Promise<string[]> {
  const numbers = await deps.repos.numbers.listNumbersOfAccount(accountId);
  return [deps.config.sandboxNumber, ...numbers.map((n) => n.phone)];
}

/** Why the network rejected a template (its `rejected_reason`, docs/cloud-api.md), in words. */
const REJECTIONS: Record<string, string> = {
  ABUSIVE_CONTENT: 'the network found abusive content in it',
  INCORRECT_CATEGORY: 'its category does not fit its content: submit it again under the right one',
  INVALID_FORMAT:
    'its format is not accepted (for example a variable at the very start or end of the body, or variables not numbered in order)',
  SCAM: 'the network took it for a scam',
  PROMOTIONAL: 'it reads as promotional: submit it as MARKETING',
  TAG_CONTENT_MISMATCH: 'its content does not match its category or language',
};

function rejectionInWords(reason: string): string {
  const words = REJECTIONS[reason];
  return words ? `Rejected: ${words} (${reason}).` : `Rejected (${reason}).`;
}

/** The templates of one number, each with its status, a preview and a way to delete it. */
function templateList(deps: PortalDeps, phone: string, templates: TemplateView[]): SafeHtml {
  return html`<section class="card"><h2>On +${phone}${phone === deps.config.sandboxNumber ? ' (sandbox)' : ''}</h2>${
    templates.length
      ? html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Language</th><th scope="col">Category</th><th scope="col">Status</th><th scope="col">Preview</th><th scope="col">Actions</th></tr></thead>
<tbody>${templates.map(
          (
            t,
          ) => html`<tr><td data-label="Name"><code>${t.name}</code><br><span class="hint">${when(Date.parse(t.createdAt))}</span></td><td data-label="Language">${t.language}</td><td data-label="Category">${t.category}</td>
<td data-label="Status">${badge(t.status)}${t.status === 'REJECTED' ? html`<br><span class="hint">${rejectionInWords(t.rejected_reason)}</span>` : ''}</td>
<td data-label="Preview"><details><summary>Show</summary>${templatePreview(t)}</details></td>
<td data-label="Actions"><a href="/app/templates/${phone}/${t.id}/delete">Delete<span class="visually-hidden"> ${t.name} (${t.language})</span></a></td></tr>`,
        )}</tbody></table></div>`
      : html`<p>No templates on this number.</p>`
  }</section>`;
}

function newTemplateForm(
  session: SessionContext,
  phones: string[],
  form: Form,
  e: Partial<Record<FormField, string>>,
): SafeHtml {
  return html`<section class="card" aria-labelledby="new-template"><h2 id="new-template">Create a template</h2>
<p>Text templates with a header, body and footer; buttons and media headers can be added through the API (<code>POST /api/v1/template/&lt;phone&gt;</code>).</p>
<form method="post" action="/app/templates" novalidate>
${csrfField(session.csrfToken)}
${select({ name: 'phone', label: 'Number', value: form.phone, error: e.phone, options: phones.map((p) => [p, `+${p}`] as [string, string]) })}
${input({ name: 'name', label: 'Name', value: form.name, error: e.name, hint: 'Lowercase letters, digits and underscores, e.g. order_update.', required: true })}
${input({ name: 'language', label: 'Language', value: form.language, error: e.language, hint: 'A language code such as en, en_US or pt_BR.', required: true })}
${select({ name: 'category', label: 'Category', value: form.category, error: e.category, options: TEMPLATE_CATEGORIES })}
${input({ name: 'headerText', label: 'Header text (optional)', value: form.headerText, error: e.headerText, hint: 'At most 60 characters and one variable {{1}}.' })}
${input({ name: 'headerExample', label: 'Header example (if the header has {{1}})', value: form.headerExample, error: e.headerExample })}
${textarea({ name: 'bodyText', label: 'Body', value: form.bodyText, error: e.bodyText, hint: 'At most 1024 characters; variables {{1}}, {{2}}… numbered in order.', required: true })}
${textarea({ name: 'bodyExamples', label: 'Body examples, one per line (one per variable)', value: form.bodyExamples, error: e.bodyExamples, rows: 3 })}
${input({ name: 'footerText', label: 'Footer (optional)', value: form.footerText, error: e.footerText, hint: 'At most 60 characters, no variables.' })}
<button type="submit">Submit for review</button>
</form></section>`;
}

async function show(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  status: number,
  options: {
    notice?: string | undefined;
    form?: Form;
    errors?: Partial<Record<FormField, string>>;
    error?: string;
  },
) {
  const phones = await phonesOf(deps, session.accountId);
  const lists: [string, TemplateView[]][] = [];
  for (const phone of phones)
    lists.push([phone, await listTemplates(deps.templates, session.accountId, phone, {})]);
  const form: Form = options.form ?? {
    phone: phones[0]!,
    name: '',
    language: 'en',
    category: 'UTILITY',
    headerText: '',
    headerExample: '',
    bodyText: '',
    bodyExamples: '',
    footerText: '',
  };
  const e = options.errors ?? {};
  const listing = lists.map(([phone, templates]) => templateList(deps, phone, templates));
  const body = html`${listing}
${newTemplateForm(session, phones, form, e)}`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: 'Templates',
        session,
        section: 'templates',
        notice: options.notice,
        error: options.error,
        body,
      }),
    );
}

export function registerTemplatePages(portal: FastifyInstance, deps: PortalDeps): void {
  registerTemplateDelete(portal, deps);
  portal.get('/templates', async (request, reply) =>
    show(deps, reply, sessionOf(request), 200, { notice: noticeOf(request.query) }),
  );

  portal.post('/templates', async (request, reply) => {
    const session = sessionOf(request);
    const form = Object.fromEntries(FORM_FIELDS.map((f) => [f, field(request.body, f, 10_000)])) as Form;
    try {
      await createTemplate(deps.templates, session.accountId, form.phone, requestBody(form));
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      const target = formFieldOf(error.field);
      return show(deps, reply, session, error.status, {
        form,
        errors: target ? { [target]: error.message } : {},
        error: target ? 'The template was not created; see the message next to the field.' : error.message,
      });
    }
    return reply.redirect('/app/templates?notice=template-created', 303);
  });
}
