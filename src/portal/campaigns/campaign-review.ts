/**
 * The wizard's last step: the campaign as the domain read it (its settings, so what is shown is what
 * will be made), the first recipients' messages, and the two ways to finish: create and start, or save
 * a DRAFT.
 */
import type { CampaignSettings } from '../../domain/campaigns/campaign-input.ts';
import type { Placeholder } from '../../domain/ports/campaigns.ts';
import { when } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';
import { templatePreview } from '../template-preview.ts';
import { backButton, previews, type StepView, stepForm } from './wizard-steps.ts';

/** Where a placeholder's value comes from, in words. */
export function placeholderWords(p: Placeholder): string {
  const source =
    'value' in p
      ? `the fixed text "${p.value}"`
      : 'field' in p
        ? p.field === 'name'
          ? "the recipient's name"
          : "the recipient's phone number"
        : 'attribute' in p
          ? `the contact attribute "${p.attribute}"`
          : `the CSV column "${p.column}"`;
  if ('value' in p) return source;
  return p.fallback ? `${source}, else "${p.fallback}"` : `${source}; a recipient without it is left out`;
}

/** When it starts: the local time in its zone, and the instant in UTC. */
export function startWords(settings: Pick<CampaignSettings, 'startAt' | 'timeZone'>): SafeHtml {
  if (settings.startAt === null) return html`Now, as soon as it is created`;
  const zone = settings.timeZone ?? 'UTC';
  // Swedish dates are written year-month-day, hour:minute: the same order as the form's input.
  const local = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(settings.startAt);
  return html`${local} ${zone} (${when(settings.startAt)})`;
}

function audienceWords(v: StepView): string {
  const count = v.ctx.audience?.count ?? 0;
  return v.form.audience === 'csv'
    ? `The CSV file: ${count} ${count === 1 ? 'row' : 'rows'}`
    : `Contacts tagged ${v.form.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .join(', ')}: ${count} ${count === 1 ? 'contact' : 'contacts'}`;
}

export function reviewStep(v: StepView): SafeHtml {
  const { ctx } = v;
  const settings = ctx.settings;
  const template = ctx.template;
  if (!settings || !template) return html``;
  const header = settings.template.header;
  const inputs = html`<dl class="facts">
<dt>Name</dt><dd>${settings.name}</dd>
<dt>From</dt><dd>+${settings.from}</dd>
<dt>Template</dt><dd><code>${template.name}</code> · ${template.language}${templatePreview(template)}</dd>
${header ? html`<dt>Header</dt><dd>${header.parameter ?? header.mediaUrl ?? ''}</dd>` : ''}
<dt>Audience</dt><dd>${audienceWords(v)}</dd>
<dt>Placeholders</dt><dd>${
    settings.parameters.length
      ? html`<ul class="plain">${settings.parameters.map((p, i) => html`<li>{{${i + 1}}}: ${placeholderWords(p)}</li>`)}</ul>`
      : 'None'
  }</dd>
<dt>Starts</dt><dd>${startWords(settings)}</dd>
</dl>
${previews(v)}`;
  return stepForm(
    v,
    'review',
    inputs,
    html`<button type="submit" name="go" value="start">Create and start</button> <button type="submit" name="go" value="draft" class="secondary">Save draft</button> ${backButton}`,
  );
}
