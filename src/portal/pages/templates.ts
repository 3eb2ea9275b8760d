/**
 * /app/templates: the account's templates on every number it may use (status, rejected reason, language,
 * a preview), and a form that creates one through the same domain function as the API, so it is checked
 * the same way and a refusal shows the API's message next to the field it names.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import type { RejectionInfo } from '../../domain/ports/templates.ts';
import { createTemplate, listTemplatesWithReviews } from '../../domain/templates/manage-templates.ts';
import { TEMPLATE_MEDIA_MAX_BYTES } from '../../domain/templates/template-media.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { ensureTemplateMediaRoom, storeTemplateMedia } from '../../domain/templates/upload-template-media.ts';
import { badge, input, select, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { type FormFile, readFileForm } from '../multipart-form.ts';
import { noticeOf } from '../notices.ts';
import { templatePreview } from '../template-preview.ts';
import {
  BUILDER_FIELDS,
  builderFieldOf,
  buttonFields,
  headerKindFields,
  inBuilderWords,
  livePreview,
  type Values,
  withBuilderParts,
} from '../templates/template-builder.ts';
import {
  categoryField,
  FORM_FIELDS,
  type Form,
  formFieldOf,
  formOf,
  requestBody,
  textFields,
} from '../templates/template-form.ts';
import { registerTemplateDelete } from './template-delete.ts';
import { registerTemplateEdit } from './template-edit.ts';

async function phonesOf(deps: PortalDeps, accountId: string): Promise<string[]> {
  const numbers = await deps.repos.numbers.listNumbersOfAccount(accountId);
  return [deps.config.sandboxNumber, ...numbers.map((n) => n.phone)];
}

/** Why the network rejected a template (its `rejected_reason`, docs/cloud-api.md), in words. */
const REJECTIONS: Record<string, string> = {
  ABUSIVE_CONTENT: 'the network found abusive content in it',
  INCORRECT_CATEGORY: 'its category does not fit its content: submit it again under the right one',
  INVALID_FORMAT:
    'its format is not accepted (for example two variables side by side, or too many variables for the length of its text)',
  SCAM: 'the network took it for a scam',
  PROMOTIONAL: 'it reads as promotional: submit it as MARKETING',
  TAG_CONTENT_MISMATCH: 'its content does not match its category or language',
};

/** Meta's quality ratings as its Business Manager words them; UNKNOWN (too few sends yet) says nothing. */
const QUALITY: Record<string, string> = { GREEN: 'high', YELLOW: 'medium', RED: 'low' };

function qualityInWords(score: string): SafeHtml | '' {
  const words = QUALITY[score];
  return words ? html`<br><span class="hint">Quality: ${words} (${score})</span>` : '';
}

type ListedTemplate = TemplateView & { rejectionInfo: RejectionInfo | null };

/** The network's own words when it gave them (`rejection_info`), else this page's for the reason code. */
function rejectionInWords(t: ListedTemplate): string {
  const reason = t.rejected_reason;
  const own = t.rejectionInfo;
  if (own) return `Rejected (${reason}): ${[own.reason, own.recommendation].filter(Boolean).join(' ')}`;
  const words = REJECTIONS[reason];
  return words ? `Rejected: ${words} (${reason}).` : `Rejected (${reason}).`;
}

/** Edit, for a template the form can show; one with buttons, a media header or cards says where instead. */
function editLink(phone: string, t: ListedTemplate): SafeHtml {
  if (!formOf(phone, t))
    return html`<span class="hint">Edit through the API<span class="visually-hidden"> (${t.name}, ${t.language})</span></span>`;
  return html`<a href="/app/templates/${phone}/${t.id}/edit">Edit<span class="visually-hidden"> ${t.name} (${t.language})</span></a>`;
}

/** The templates of one number, each with its status, a preview and a way to delete it. */
function templateList(deps: PortalDeps, phone: string, templates: ListedTemplate[]): SafeHtml {
  return html`<section class="card"><h2>On +${phone}${phone === deps.config.sandboxNumber ? ' (sandbox)' : ''}</h2>${
    templates.length
      ? html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Language</th><th scope="col">Category</th><th scope="col">Status</th><th scope="col">Preview</th><th scope="col">Actions</th></tr></thead>
<tbody>${templates.map(
          (
            t,
          ) => html`<tr><td data-label="Name"><code>${t.name}</code><br><span class="hint">${when(Date.parse(t.createdAt))}</span></td><td data-label="Language">${t.language}</td><td data-label="Category">${t.category}</td>
<td data-label="Status">${badge(t.status)}${t.status === 'REJECTED' ? html`<br><span class="hint">${rejectionInWords(t)}</span>` : ''}${qualityInWords(t.quality_score.score)}</td>
<td data-label="Preview"><details><summary>Show</summary>${templatePreview(t)}</details></td>
<td data-label="Actions"><div class="actions">${editLink(phone, t)}<a href="/app/templates/${phone}/${t.id}/delete">Delete<span class="visually-hidden"> ${t.name} (${t.language})</span></a></div></td></tr>`,
        )}</tbody></table></div>`
      : html`<p>No templates on this number.</p>`
  }</section>`;
}

function newTemplateForm(
  session: SessionContext,
  phones: string[],
  form: Form,
  builder: Values,
  e: Values,
): SafeHtml {
  return html`<section class="card" aria-labelledby="new-template"><h2 id="new-template">Create a template</h2>
<p>A header (text, or an image, video or document), a body, a footer and up to three buttons. Carousel and authentication templates, and more buttons: through the API (<code>POST /api/v1/template/&lt;phone&gt;</code>).</p>
<form method="post" action="/app/templates" enctype="multipart/form-data" novalidate data-template-form>
${csrfField(session.csrfToken)}
${select({ name: 'phone', label: 'Number', value: form.phone, error: e.phone, options: phones.map((p) => [p, `+${p}`] as [string, string]) })}
${input({ name: 'name', label: 'Name', value: form.name, error: e.name, hint: 'Lowercase letters, digits and underscores, e.g. order_update.', required: true })}
${input({ name: 'language', label: 'Language', value: form.language, error: e.language, hint: 'A language code such as en, en_US or pt_BR.', required: true })}
${categoryField(form, e)}
${headerKindFields(builder, e)}
${textFields(form, e)}
${buttonFields(builder, e)}
${livePreview}
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
    builder?: Values;
    errors?: Values;
    error?: string;
  },
) {
  const phones = await phonesOf(deps, session.accountId);
  const lists: [string, ListedTemplate[]][] = [];
  for (const phone of phones)
    lists.push([phone, await listTemplatesWithReviews(deps.templates, session.accountId, phone)]);
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
${newTemplateForm(session, phones, form, options.builder ?? {}, e)}`;
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

/** The template form's header file, kept as the API's upload keeps it (upload-template-media.ts). */
function headerFile(deps: PortalDeps, session: SessionContext): FormFile {
  return {
    field: 'headerFile',
    maxBytes: TEMPLATE_MEDIA_MAX_BYTES,
    async store(bytes) {
      await ensureTemplateMediaRoom(deps.templates, session.accountId);
      return (await storeTemplateMedia(deps.templates, session.accountId, bytes)).handle;
    },
  };
}

export function registerTemplatePages(portal: FastifyInstance, deps: PortalDeps): void {
  registerTemplateDelete(portal, deps);
  registerTemplateEdit(portal, deps);
  portal.get('/templates', async (request, reply) =>
    show(deps, reply, sessionOf(request), 200, { notice: noticeOf(request.query) }),
  );

  portal.post('/templates', { config: { portalMultipart: true } }, async (request, reply) => {
    const session = sessionOf(request);
    const {
      values,
      file: handle,
      fileError,
    } = await readFileForm(request, session.csrfToken, headerFile(deps, session));
    const form = Object.fromEntries(FORM_FIELDS.map((f) => [f, field(values, f, 10_000)])) as Form;
    const builder = Object.fromEntries(BUILDER_FIELDS.map((f) => [f, field(values, f, 10_000)]));
    if (fileError) {
      return show(deps, reply, session, fileError.status, {
        form,
        builder,
        errors: { headerFile: fileError.message },
        error: 'The template was not created; see the message next to the field.',
      });
    }
    try {
      const body = withBuilderParts(requestBody(form), builder, handle);
      await createTemplate(deps.templates, session.accountId, form.phone, body);
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      // The file is the example of this template only: not kept for one that was not created.
      if (handle) await deps.templates.templates.removeMedia(session.accountId, handle);
      const target = formFieldOf(error.field) ?? builderFieldOf(error.field ?? '');
      return show(deps, reply, session, error.status, {
        form,
        builder,
        errors: target ? { [target]: inBuilderWords(error.message) } : {},
        error: target ? 'The template was not created; see the message next to the field.' : error.message,
      });
    }
    return reply.redirect('/app/templates?notice=template-created', 303);
  });
}
