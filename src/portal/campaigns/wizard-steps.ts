/**
 * The wizard's steps as HTML: one form per step, which carries the other steps' answers hidden
 * (wizard-form.ts), shows this step's inputs with any error at its input, and offers Next and Back.
 * The review step is campaign-review.ts.
 */
import type { SessionContext } from '../../domain/ports/portal.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { input, select, textarea } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';
import { csrfField } from '../layout.ts';
import { templatePreview } from '../template-preview.ts';
import { samplePreviews } from './wizard-audience.ts';
import { settingsIfValid, type WizardContext } from './wizard-checks.ts';
import {
  CSV_MAX_CHARS,
  hiddenAnswers,
  STEP_TITLES,
  STEPS,
  type Step,
  sourceOf,
  templateKey,
  type WizardForm,
} from './wizard-form.ts';

export type Errors = Record<string, string>;

export interface StepView {
  session: SessionContext;
  form: WizardForm;
  ctx: WizardContext;
  errors: Errors;
}

const SOURCE_LABELS: [string, string][] = [
  ['name', 'Name (of the contact, or the CSV column "name")'],
  ['phone', 'Phone number'],
  ['attribute', 'Contact attribute (named below)'],
  ['column', 'CSV column (named below)'],
  ['value', 'Fixed value (below)'],
];

const phoneLabel = (phone: string, sandbox: string) => `+${phone}${phone === sandbox ? ' (sandbox)' : ''}`;

/** Where the wizard is: every step, the current one marked. */
function progress(step: Step): SafeHtml {
  const at = STEPS.indexOf(step);
  return html`<ol class="steps" aria-label="Steps">${STEPS.map(
    (s, i) =>
      html`<li${i === at ? html` aria-current="step"` : ''}${i < at ? html` class="done"` : ''}>${STEP_TITLES[s]}</li>`,
  )}</ol>`;
}

/** A group of radio buttons with its legend and error. */
function radios(
  name: string,
  legend: string,
  value: string,
  options: [string, string][],
  error: string | undefined,
): SafeHtml {
  return html`<fieldset${error ? html` class="has-error" aria-describedby="f-${name}-error"` : ''}><legend>${legend}</legend>
${error ? html`<p class="field-error" id="f-${name}-error">${error}</p>` : ''}
${options.map(
  ([v, label], i) =>
    html`<div class="check"><input type="radio" id="f-${name}-${i}" name="${name}" value="${v}"${v === value ? html` checked` : ''}><label for="f-${name}-${i}">${label}</label></div>`,
)}</fieldset>`;
}

/** The step's form around its inputs: CSRF, the step, the hidden answers, and the buttons. */
export function stepForm(v: StepView, step: Step, inputs: SafeHtml, buttons: SafeHtml): SafeHtml {
  const n = STEPS.indexOf(step) + 1;
  return html`${progress(step)}
<section class="card" aria-labelledby="step-heading"><h2 id="step-heading">Step ${n} of ${STEPS.length}: ${STEP_TITLES[step]}</h2>
<form method="post" action="/app/campaigns/new" novalidate>
${csrfField(v.session.csrfToken)}
<input type="hidden" name="step" value="${step}">
${hiddenAnswers(v.form, step, v.ctx.needs.placeholders)}
${inputs}
<div class="actions">${buttons}</div>
</form></section>`;
}

export const nextButton = html`<button type="submit" name="go" value="next">Next</button>`;
export const backButton = html`<button type="submit" name="go" value="back" class="secondary">Back</button>`;

export function numberStep(v: StepView, sandbox: string): SafeHtml {
  const { form, ctx, errors } = v;
  const inputs = html`${input({ name: 'name', label: 'Campaign name', value: form.name, error: errors.name, hint: 'For you only: recipients never see it.', required: true })}
${select({ name: 'from', label: 'Send from', value: form.from, error: errors.from, options: ctx.phones.map((p) => [p, phoneLabel(p, sandbox)] as [string, string]) })}`;
  return stepForm(v, 'number', inputs, nextButton);
}

function templateChoice(t: TemplateView, i: number, chosen: string): SafeHtml {
  const key = templateKey(t.name, t.language);
  return html`<div class="choice"><div class="check"><input type="radio" id="f-template-${i}" name="template" value="${key}"${key === chosen ? html` checked` : ''}><label for="f-template-${i}"><code>${t.name}</code> · ${t.language} · ${t.category}</label></div>
${templatePreview(t)}</div>`;
}

export function templateStep(v: StepView): SafeHtml {
  const { form, ctx, errors } = v;
  const error = errors.template;
  const inputs = ctx.templates.length
    ? html`<fieldset class="choices${error ? ' has-error' : ''}"${error ? html` aria-describedby="f-template-error"` : ''}><legend>Approved templates of +${form.from}</legend>
<p class="hint">Each is shown with its example values; the placeholders are mapped in a later step.</p>
${error ? html`<p class="field-error" id="f-template-error">${error}</p>` : ''}
${ctx.templates.map((t, i) => templateChoice(t, i, form.template))}</fieldset>`
    : html`<p class="field-error">${error ?? 'This number has no approved template yet.'}</p>
<p><a href="/app/templates">Create a template</a> and come back when the network has approved it.</p>`;
  return stepForm(v, 'template', inputs, html`${nextButton} ${backButton}`);
}

function audienceCount(v: StepView): SafeHtml | string {
  const audience = v.ctx.audience;
  if (!audience || Object.keys(v.errors).length) return '';
  const what =
    v.form.audience === 'csv'
      ? `${audience.count} ${audience.count === 1 ? 'row' : 'rows'} in the file (columns: ${audience.columns.join(', ')})`
      : `${audience.count} ${audience.count === 1 ? 'contact has' : 'contacts have'} these tags`;
  return html`<p class="notice" role="status" id="audience-count">${what}. Each person receives the message once; rows without a valid number, repeated people and users who opted out are left out when it starts.</p>`;
}

/** The tags the account's contacts have, so that a typo does not make an empty audience unnoticed. */
function tagsInUse(v: StepView): SafeHtml | string {
  const tags = v.ctx.tags ?? [];
  if (!tags.length) return html`<p class="hint">None of your contacts has a tag yet (Contacts page).</p>`;
  const listed = tags.map((t) => html`<code>${t.tag}</code> (${t.contacts})`);
  return html`<p class="hint" id="tags-in-use">Tags of your contacts, with how many have each: ${listed.map((t, i) => html`${i ? ', ' : ''}${t}`)}.</p>`;
}

export function audienceStep(v: StepView): SafeHtml {
  const { form, errors } = v;
  const inputs = html`${audienceCount(v)}
${radios(
  'audience',
  'Who receives it',
  form.audience,
  [
    ['tags', 'Contacts with any of these tags'],
    ['csv', 'The rows of a CSV file'],
  ],
  errors.audience,
)}
${input({ name: 'tags', label: 'Tags', value: form.tags, error: errors.tags, hint: 'For contacts: separated by commas. A contact with several of them receives one message.' })}
${tagsInUse(v)}
<div class="field"><label for="csv-file" hidden>Read the CSV file from your computer</label><input type="file" id="csv-file" accept=".csv,text/csv" data-fills="f-csv" hidden></div>
${textarea({ name: 'csv', label: 'CSV file', value: form.csv, error: errors.csv, rows: 6, hint: `For a CSV audience: paste the file, or choose it above. The first line names the columns: phone (or user_id), and any column a placeholder reads. At most ${CSV_MAX_CHARS / 1_000_000} MB here; larger files through POST /api/v1/campaigns/<id>/audience.` })}`;
  return stepForm(
    v,
    'audience',
    inputs,
    html`${nextButton} <button type="submit" name="go" value="count" class="secondary">Count recipients</button> ${backButton}`,
  );
}

function placeholderFields(v: StepView, i: number): SafeHtml {
  const { form, errors } = v;
  const n = i + 1;
  return html`<fieldset><legend>Placeholder {{${n}}}</legend>
${select({ name: `source-${n}`, label: 'Filled from', value: sourceOf(form, i), error: errors[`source-${n}`], options: SOURCE_LABELS })}
${input({ name: `value-${n}`, label: 'Attribute, column or fixed value', value: form.values[i] ?? '', error: errors[`value-${n}`], hint: 'The name of the attribute or column, or the text everyone gets.' })}
${input({ name: `fallback-${n}`, label: 'Fallback', value: form.fallbacks[i] ?? '', error: errors[`fallback-${n}`], hint: 'Used when the recipient has no value. Without one, such a recipient is left out.' })}
</fieldset>`;
}

function headerField(v: StepView): SafeHtml | string {
  const need = v.ctx.needs.header;
  if (need === 'none') return '';
  const label = need === 'TEXT' ? 'Header value ({{1}} of the header)' : `Header ${need.toLowerCase()} link`;
  const hint =
    need === 'TEXT' ? 'The same for every recipient.' : 'An https link to the file, the same for everyone.';
  return input({ name: 'header', label, value: v.form.header, error: v.errors.header, hint });
}

/** A field for the end of each link button's URL, the same for every recipient. */
function buttonFields(v: StepView): SafeHtml[] {
  return v.ctx.needs.linkButtons.map((b) =>
    input({
      name: `button-${b.index}`,
      label: `End of the link of the button "${b.text}"`,
      value: v.form.buttons[b.index] ?? '',
      error: v.errors[`button-${b.index}`],
      hint: `The button opens ${b.url}, with {{1}} replaced by this text: the same for every recipient.`,
    }),
  );
}

/** The first recipients' messages with the mapping as it stands, when the domain accepts it. */
export function previews(v: StepView): SafeHtml {
  const template = v.ctx.template;
  const settings = v.ctx.settings ?? settingsIfValid(v.form, v.ctx);
  if (!template || !v.ctx.audience) return html``;
  const body = settings
    ? samplePreviews(template, settings.parameters, v.ctx.audience.sample, v.form.header.trim())
    : html`<p>Fill in every placeholder, then choose "Update preview".</p>`;
  return html`<h3 id="previews">The first recipients' messages</h3>${body}`;
}

export function mappingStep(v: StepView): SafeHtml {
  const { ctx, errors } = v;
  const body = (ctx.template?.components as { type?: string; text?: string }[] | undefined)?.find(
    (c) => c.type === 'BODY',
  )?.text;
  const fields = Array.from({ length: ctx.needs.placeholders }, (_, i) => placeholderFields(v, i));
  const inputs = html`<p>The template's text:</p><div class="preview">${body ?? ''}</div>
${ctx.audience?.columns.length ? html`<p class="hint">Columns of the file: ${ctx.audience.columns.join(', ')}.</p>` : ''}
${errors.parameters ? html`<p class="field-error" id="f-parameters-error">${errors.parameters}</p>` : ''}
${headerField(v)}
${buttonFields(v)}
${fields.length ? fields : html`<p>This template has no placeholders: everyone receives the same text.</p>`}
${previews(v)}`;
  return stepForm(
    v,
    'mapping',
    inputs,
    html`${nextButton} <button type="submit" name="go" value="preview" class="secondary">Update preview</button> ${backButton}`,
  );
}

/** Every zone the runtime knows, UTC first. */
function zones(): string[] {
  const all = Intl.supportedValuesOf('timeZone');
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

export function defaultZone(form: WizardForm): string {
  if (form.timeZone) return form.timeZone;
  return zones().includes(form.browserZone) ? form.browserZone : 'UTC';
}

export function scheduleStep(v: StepView): SafeHtml {
  const { form, errors } = v;
  const inputs = html`${radios(
    'when',
    'When it starts',
    form.when,
    [
      ['now', 'Now, as soon as it is created'],
      ['later', 'At a date and time'],
    ],
    errors.when,
  )}
${input({ name: 'startAt', label: 'Date and time', type: 'datetime-local', value: form.startAt, error: errors.startAt, hint: 'Read in the time zone below; for "At a date and time" only.' })}
${select({ name: 'timeZone', label: 'Time zone', value: defaultZone(form), error: errors.timeZone, options: zones() })}`;
  return stepForm(v, 'schedule', inputs, html`${nextButton} ${backButton}`);
}
