/**
 * /app/contacts: the account's contacts, a page at a time and by tag, a form to add one or change one
 * found by its number (docs/contacts.md), and who opted out of the account's marketing (opted-out.ts). Reads and writes go through the same domain service as
 * /api/v1/contacts (src/domain/contacts.ts), scoped by account; a refusal is shown at its field.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { checkColumns, type ImportReport, importContacts } from '../../domain/contact-import.ts';
import { CONTACT_LIMITS, listContacts, upsertContacts } from '../../domain/contacts.ts';
import { CSV_UPLOAD_MAX_BYTES, csvUploadRows } from '../../domain/csv-upload.ts';
import { GatewayError } from '../../domain/errors.ts';
import type { Contact } from '../../domain/ports/contacts.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import { input, textarea, when } from '../components.ts';
import { optedOutSection } from '../contacts/opted-out.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { field } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import { type FormFile, readFileForm } from '../multipart-form.ts';
import { noticeOf } from '../notices.ts';
import { html200 } from './account.ts';
import { registerContactDelete } from './contact-delete.ts';

const PER_PAGE = 50;

interface FormState {
  values?: { phone: string; name: string; tags: string; attributes: string };
  errors?: Partial<Record<'phone' | 'name' | 'tags' | 'attributes' | 'file', string>>;
  /** What an import just did. */
  report?: ImportReport;
}

/**
 * The form's attributes, one `name=value` a line: a value set or changed, an empty one removes the
 * attribute (as null does in the API). A line without `=` is refused, naming the field.
 */
function attributesOf(text: string): Record<string, string | null> {
  const attributes: Record<string, string | null> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    if (at < 1)
      throw new GatewayError('invalid_request', `Line ${i + 1} of the attributes must be name=value.`, {
        field: 'attributes',
      });
    const value = line.slice(at + 1).trim();
    Object.defineProperty(attributes, line.slice(0, at).trim(), { value: value || null, enumerable: true });
  }
  return attributes;
}

function row(c: Contact): SafeHtml {
  const attributes = Object.entries(c.attributes).map(([k, v]) => `${k}: ${v}`);
  return html`<tr><td data-label="Name">${c.name ?? '—'}</td><td data-label="Phone">${c.phone ? `+${c.phone}` : '—'}</td><td data-label="User id">${c.userId ?? '—'}</td><td data-label="Tags">${c.tags.join(', ')}</td><td data-label="Attributes">${attributes.join('; ')}</td><td data-label="Added">${when(c.createdAt)}</td><td data-label="Actions"><a href="/app/contacts/${c.id}/delete">Delete<span class="visually-hidden"> ${c.name ?? (c.phone ? `+${c.phone}` : c.userId)}</span></a></td></tr>`;
}

function pager(tag: string, pageNo: number, total: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const link = (n: number) =>
    `/app/contacts?${new URLSearchParams({ ...(tag ? { tag } : {}), page: String(n) })}`;
  return html`<nav aria-label="Pages of contacts" class="pager"><p>Page ${pageNo} of ${pages} (${total} contacts)</p>${
    pageNo > 1 ? html`<a href="${link(pageNo - 1)}">Previous page</a> ` : ''
  }${pageNo < pages ? html`<a href="${link(pageNo + 1)}">Next page</a>` : ''}</nav>`;
}

/** The import form: a CSV file, read as it arrives, as `POST /api/v1/contacts/import` reads it. */
function importForm(session: SessionContext, state: FormState): SafeHtml {
  const error = state.errors?.file;
  return html`<section class="card" aria-labelledby="import-contacts"><h2 id="import-contacts">Import a CSV file</h2>
<form method="post" action="/app/contacts/import" enctype="multipart/form-data" novalidate>
${csrfField(session.csrfToken)}
<div class="field${error ? ' has-error' : ''}"><label for="f-file">CSV file</label>
<p class="hint" id="f-file-hint">The first line names the columns: phone (or user_id), name, tags (separated by ;), and any other column an attribute. Every valid row is made or changed; every other is listed with its line. Up to 100 MB.</p>
${error ? html`<p class="field-error" id="f-file-error">${error}</p>` : ''}
<input id="f-file" name="file" type="file" accept=".csv,text/csv" aria-describedby="f-file-hint${error ? ' f-file-error' : ''}"></div>
<button type="submit">Import</button>
</form>${state.report ? importReport(state.report) : ''}</section>`;
}

/** What an import did: rows made and changed, and each refused one with its line. */
function importReport(report: ImportReport): SafeHtml {
  const refused = report.rejected.slice(0, 100);
  const rows = report.rows === 1 ? '1 row' : `${report.rows} rows`;
  return html`<p role="status">The file had ${rows}: ${report.created} contacts made, ${report.updated} changed, ${report.rejected.length} refused.</p>${
    refused.length
      ? html`<ul>${refused.map((r) => html`<li>Line ${r.line}: ${r.reason}</li>`)}</ul>${report.rejected.length > refused.length ? html`<p class="hint">And ${report.rejected.length - refused.length} more.</p>` : ''}`
      : ''
  }`;
}

function form(session: SessionContext, state: FormState): SafeHtml {
  const v = state.values ?? { phone: '', name: '', tags: '', attributes: '' };
  const e = state.errors ?? {};
  return html`<section class="card" aria-labelledby="add-contact"><h2 id="add-contact">Add or change a contact</h2>
<form method="post" action="/app/contacts" novalidate>
${csrfField(session.csrfToken)}
${input({ name: 'phone', label: 'Phone number', type: 'tel', value: v.phone, error: e.phone, hint: 'With country code, e.g. +14155550123. A contact with this number is changed.', required: true })}
${input({ name: 'name', label: 'Name', value: v.name, error: e.name })}
${input({ name: 'tags', label: 'Tags', value: v.tags, error: e.tags, hint: `Separated by commas; at most ${CONTACT_LIMITS.tags}. They replace the contact's tags.` })}
${textarea({ name: 'attributes', label: 'Attributes (optional)', value: v.attributes, error: e.attributes, rows: 3, hint: 'One name=value a line, e.g. city=Nairobi, as campaign placeholders read them. An empty value (city=) removes it; others are kept.' })}
<button type="submit">Save contact</button>
</form></section>`;
}

async function list(
  deps: PortalDeps,
  reply: FastifyReply,
  session: SessionContext,
  query: { tag: string; page: number; notice?: string | undefined },
  status = 200,
  state: FormState = {},
) {
  const { contacts, total } = await listContacts(deps.contacts, session.accountId, {
    ...(query.tag ? { tag: query.tag } : {}),
    page: query.page,
    perPage: PER_PAGE,
  });
  const body = html`<section class="card"><h2>Your contacts</h2>
<form method="get" action="/app/contacts" class="inline">
${input({ name: 'tag', label: 'Tag', value: query.tag, hint: 'Show only the contacts with this tag.' })}
<button type="submit" class="secondary">Filter</button>
</form>
${
  contacts.length
    ? html`<div class="table-wrap"><table class="stack contacts"><caption class="visually-hidden">Contacts${query.tag ? ` tagged ${query.tag}` : ''}</caption><thead><tr><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">User id</th><th scope="col">Tags</th><th scope="col">Attributes</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${contacts.map(row)}</tbody></table></div>`
    : html`<p>${query.tag ? 'No contact has this tag.' : 'No contacts yet. Users who write to your numbers appear here, and you can add contacts or import a CSV file below.'}</p>`
}
${pager(query.tag, query.page, total)}</section>
${form(session, state)}
${importForm(session, state)}
${await optedOutSection(deps.repos.optOuts, session.accountId)}`;
  return html200(
    reply,
    status,
    page({ title: 'Contacts', session, section: 'contacts', notice: query.notice, body }),
  );
}

function queryOf(raw: unknown) {
  const tag = field(raw, 'tag', 64).trim();
  const pageNo = Number(field(raw, 'page', 7));
  return { tag, page: Number.isSafeInteger(pageNo) && pageNo > 0 ? pageNo : 1 };
}

function registerImport(portal: FastifyInstance, deps: PortalDeps): void {
  portal.post('/contacts/import', { config: { portalMultipart: true } }, async (request, reply) => {
    const session = sessionOf(request);
    let report: ImportReport | undefined;
    const file: FormFile = {
      field: 'file',
      maxBytes: CSV_UPLOAD_MAX_BYTES,
      async store(bytes) {
        report = await importContacts(deps.contacts, session.accountId, csvUploadRows(bytes, checkColumns));
        return 'imported';
      },
    };
    const { fileError } = await readFileForm(request, session.csrfToken, file);
    const error = fileError?.message ?? (report ? undefined : 'Choose a CSV file to import.');
    const query = { tag: '', page: 1 };
    if (error)
      return list(deps, reply, session, query, fileError?.status ?? 400, { errors: { file: error } });
    return list(deps, reply, session, query, 200, report ? { report } : {});
  });
}

export function registerContactPages(portal: FastifyInstance, deps: PortalDeps): void {
  registerImport(portal, deps);
  registerContactDelete(portal, deps);
  portal.get('/contacts', async (request, reply) =>
    list(deps, reply, sessionOf(request), { ...queryOf(request.query), notice: noticeOf(request.query) }),
  );

  portal.post('/contacts', async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      phone: field(request.body, 'phone', 64).trim(),
      name: field(request.body, 'name', 256).trim(),
      tags: field(request.body, 'tags', 2000),
      attributes: field(request.body, 'attributes', 60_000),
    };
    const tags = values.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    try {
      const attributes = attributesOf(values.attributes);
      const given = Object.keys(attributes).length ? { attributes } : {};
      await upsertContacts(
        deps.contacts,
        session.accountId,
        [{ phone: values.phone, ...(values.name ? { name: values.name } : {}), tags, ...given }],
        () => '',
      );
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status >= 500) throw error;
      // The API's field (`attributes.city`, `tags[2]`) → this form's.
      const at = (error.field ?? 'phone').replace(/\[\d+\]$/, '').split('.')[0];
      const known = (['phone', 'name', 'tags', 'attributes'] as const).find((f) => f === at) ?? 'phone';
      return list(deps, reply, session, { tag: '', page: 1 }, error.status, {
        values,
        errors: { [known]: error.message },
      });
    }
    return reply.redirect('/app/contacts?notice=contact-saved', 303);
  });
}
