/**
 * /app/flows: the account's flows with their preview links, a form that creates one from Flow JSON
 * (pasted, or read from a chosen file by the page script) through the API's own createFlow, and publish.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { createFlow, flowPreview, listFlows } from '../../domain/flows/flow-service.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { FLOW_JSON_MAX_BYTES } from '../../lib/flow-json/file-size.ts';
import { badge, input, select, textarea, when } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { categoryFields, type Errors, FIELD_OF } from '../flows/flow-form.ts';
import { field, fieldList, pageNumber } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { noticeOf } from '../notices.ts';
import { registerFlowEdit } from './flow-edit.ts';
import { registerFlowLifecycle } from './flow-lifecycle.ts';

const PER_PAGE = 20;
interface Form {
  phoneNumber: string;
  name: string;
  categories: string[];
  flowJson: string;
}

function flowsTable(
  rows: { flow: Awaited<ReturnType<typeof listFlows>>['data'][number]; preview: { preview_url: string } }[],
  pageNo: number,
  totalPages: number,
): SafeHtml | string {
  return rows.length
    ? html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Categories</th><th scope="col">Updated</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows.map(
        ({
          flow,
          preview,
        }) => html`<tr><td data-label="Name"><bdi>${flow.name}</bdi><br><span class="hint">id ${flow.id}</span></td><td data-label="Status">${badge(flow.status)}</td>
<td data-label="Categories">${flow.categories.join(', ')}</td><td data-label="Updated">${when(Date.parse(flow.updatedAt))}</td>
<td><div class="actions"><a href="${preview.preview_url}">Preview<span class="visually-hidden"> ${flow.name}</span></a>${
          flow.status === 'DRAFT'
            ? html`<a href="/app/flows/${flow.id}/edit">Edit<span class="visually-hidden"> ${flow.name}</span></a><a href="/app/flows/${flow.id}/publish">Publish<span class="visually-hidden"> ${flow.name}</span></a><a href="/app/flows/${flow.id}/delete">Delete<span class="visually-hidden"> ${flow.name}</span></a>`
            : flow.status === 'PUBLISHED'
              ? html`<a href="/app/flows/${flow.id}/deprecate">Deprecate<span class="visually-hidden"> ${flow.name}</span></a>`
              : ''
        }</div></td></tr>`,
      )}</tbody></table></div>
<nav class="pager" aria-label="Pages">${pageNo > 1 ? html`<a href="/app/flows?page=${pageNo - 1}">Newer</a>` : ''}${pageNo < totalPages ? html`<a href="/app/flows?page=${pageNo + 1}">Older</a>` : ''}</nav>`
    : html`<p>No flows yet.</p>`;
}

function newFlowForm(session: SessionContext, phones: string[], form: Form, e: Errors): SafeHtml {
  return html`<section class="card" aria-labelledby="new-flow"><h2 id="new-flow">Create a flow</h2>
<form method="post" action="/app/flows" novalidate>
${csrfField(session.csrfToken)}
${select({ name: 'phoneNumber', label: 'Number', value: form.phoneNumber, error: e.phoneNumber, options: phones.map((p) => [p, `+${p}`] as [string, string]) })}
${input({ name: 'name', label: 'Name', value: form.name, error: e.name, required: true })}
${categoryFields(form.categories, e.categories)}
<div class="field"><label for="flow-file" hidden>Read Flow JSON from a file</label><input type="file" id="flow-file" accept=".json,application/json" data-fills="f-flowJson" hidden></div>
${textarea({ name: 'flowJson', label: 'Flow JSON', value: form.flowJson, error: e.flowJson, rows: 12, required: true, hint: 'Paste the Flow JSON, or choose a file above.' })}
<button type="submit">Create flow</button>
</form></section>`;
}

async function show(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  status: number,
  pageNo: number,
  options: { notice?: string | undefined; error?: string; form?: Form; errors?: Errors },
) {
  const flows = await listFlows(deps.flows, session.accountId, pageNo, PER_PAGE);
  const numbers = await deps.repos.numbers.listNumbersOfAccount(session.accountId);
  const phones = [deps.config.sandboxNumber, ...numbers.map((n) => n.phone)];
  const form = options.form ?? { phoneNumber: phones[0]!, name: '', categories: [], flowJson: '' };
  const e = options.errors ?? {};
  const rows = await Promise.all(
    flows.data.map(async (f) => ({
      flow: f,
      preview: (await flowPreview(deps.flows, session.accountId, f.id)).preview,
    })),
  );
  const body = html`<section class="card"><h2>Your flows</h2>${flowsTable(rows, pageNo, flows.totalPages)}</section>
${newFlowForm(session, phones, form, e)}`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title: 'Flows',
        session,
        section: 'flows',
        notice: options.notice,
        error: options.error,
        body,
      }),
    );
}

export function registerFlowPages(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/flows', async (request, reply) =>
    show(deps, reply, sessionOf(request), 200, pageNumber(request.query), {
      notice: noticeOf(request.query),
    }),
  );

  // Flow JSON arrives URL-encoded, up to three bytes per character: the route accepts a body that large.
  portal.post('/flows', { bodyLimit: 3 * FLOW_JSON_MAX_BYTES + 64 * 1024 }, async (request, reply) => {
    const session = sessionOf(request);
    const form: Form = {
      phoneNumber: field(request.body, 'phoneNumber', 40),
      name: field(request.body, 'name', 1000),
      categories: fieldList(request.body, 'categories'),
      flowJson: field(request.body, 'flowJson', FLOW_JSON_MAX_BYTES),
    };
    try {
      if (form.flowJson.trim() === '') {
        throw new GatewayError('invalid_request', 'Paste the Flow JSON or choose a file.', { field: 'file' });
      }
      await createFlow(deps.flows, session.accountId, {
        phoneNumber: form.phoneNumber,
        name: form.name,
        categories: form.categories.join(','),
        flowJson: form.flowJson,
      });
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      const target = error.field ? FIELD_OF[error.field] : undefined;
      return show(deps, reply, session, error.status, 1, {
        form,
        errors: target ? { [target]: error.message } : {},
        error: target ? 'The flow was not created; see the message next to the field.' : error.message,
      });
    }
    return reply.redirect('/app/flows?notice=flow-created', 303);
  });

  // Publish, deprecate and delete, each confirmed first; a refusal is shown on the flows page.
  registerFlowEdit(portal, deps);
  registerFlowLifecycle(portal, deps, (request, reply, error) =>
    show(deps, reply, sessionOf(request), error.status, 1, { error: error.message }),
  );
}
