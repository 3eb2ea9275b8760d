/**
 * /app/flows/:id/edit: a DRAFT flow's name, categories and Flow JSON changed through the same domain
 * function as `PUT /api/v1/msg/manage/flow/:id` (docs/flows.md): a refusal shows the API's message next to
 * its field; the network validates the new JSON again. A flow past DRAFT cannot change: a 409 that says so.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../domain/errors.ts';
import { draftFlow, updateFlow } from '../../domain/flows/flow-service.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { FLOW_JSON_MAX_BYTES } from '../../lib/flow-json/file-size.ts';
import { input, textarea } from '../components.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { categoryFields, type Errors, FIELD_OF } from '../flows/flow-form.ts';
import { field, fieldList, param } from '../forms.ts';
import { html } from '../html.ts';
import { csrfField, page } from '../layout.ts';

interface EditForm {
  name: string;
  categories: string[];
  flowJson: string;
}

function flowId(params: unknown): number {
  const raw = param(params, 'id');
  const id = /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id))
    throw new GatewayError('not_found', 'There is no such flow in your account.');
  return id;
}

async function editPage(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  id: number,
  options: { form?: EditForm; errors?: Errors; status?: number; error?: string } = {},
) {
  const draft = await draftFlow(deps.flows, session.accountId, id);
  const form = options.form ?? {
    name: draft.view.name,
    categories: draft.view.categories,
    flowJson: draft.flowJson,
  };
  const e = options.errors ?? {};
  const body = html`<p><a href="/app/flows">← All flows</a></p>
<section class="card"><p>Flow ${draft.view.id} on +${draft.phone}, DRAFT. The network checks the Flow JSON again when it is saved; a flow is sent only once published.</p>
<form method="post" action="/app/flows/${id}/edit" novalidate>${csrfField(session.csrfToken)}
${input({ name: 'name', label: 'Name', value: form.name, error: e.name, required: true })}
${categoryFields(form.categories, e.categories)}
<div class="field"><label for="flow-file" hidden>Read Flow JSON from a file</label><input type="file" id="flow-file" accept=".json,application/json" data-fills="f-flowJson" hidden></div>
${textarea({ name: 'flowJson', label: 'Flow JSON', value: form.flowJson, error: e.flowJson, rows: 16, required: true, hint: 'Change it here, or choose a file above.' })}
<button type="submit">Save the draft</button></form></section>`;
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page({ title: `Edit ${draft.view.name}`, session, section: 'flows', body, error: options.error }));
}

export function registerFlowEdit(portal: FastifyInstance, deps: PortalDeps): void {
  portal.get('/flows/:id/edit', async (request, reply) =>
    editPage(deps, reply, sessionOf(request), flowId(request.params)),
  );

  // Flow JSON arrives URL-encoded, up to three bytes per character.
  portal.post(
    '/flows/:id/edit',
    { bodyLimit: 3 * FLOW_JSON_MAX_BYTES + 64 * 1024 },
    async (request, reply) => {
      const session = sessionOf(request);
      const id = flowId(request.params);
      const form: EditForm = {
        name: field(request.body, 'name', 1000),
        categories: fieldList(request.body, 'categories'),
        flowJson: field(request.body, 'flowJson', FLOW_JSON_MAX_BYTES),
      };
      try {
        await updateFlow(deps.flows, session.accountId, id, {
          name: form.name,
          categories: form.categories.join(','),
          flowJson: form.flowJson,
        });
      } catch (error) {
        if (!(error instanceof GatewayError) || error.status >= 500 || error.status === 404) throw error;
        const target = error.field ? FIELD_OF[error.field] : undefined;
        return editPage(deps, reply, session, id, {
          form,
          errors: target ? { [target]: error.message } : {},
          status: error.status,
          error: target ? 'The flow was not saved; see the message next to the field.' : error.message,
        });
      }
      return reply.redirect('/app/flows?notice=flow-saved', 303);
    },
  );
}
