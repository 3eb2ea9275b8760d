/**
 * The campaign wizard's form (/app/campaigns/new). Every answer travels with each step as hidden fields, so
 * nothing is stored before the last step creates the campaign. This reads the answers back (bounded, as
 * src/portal/forms.ts reads any form), turns them into the API's campaign input
 * (src/domain/campaigns/campaign-input.ts, whose checks decide), and finds the step and input a refusal
 * of the domain names.
 */

import { CAMPAIGN_LIMITS, type CampaignInput } from '../../domain/campaigns/campaign-input.ts';
import { GatewayError } from '../../domain/errors.ts';
import type { CampaignTemplate } from '../../domain/ports/campaigns.ts';
import { field } from '../forms.ts';
import { html, type SafeHtml } from '../html.ts';

export const STEPS = ['number', 'template', 'audience', 'mapping', 'schedule', 'review'] as const;
export type Step = (typeof STEPS)[number];

export const STEP_TITLES: Record<Step, string> = {
  number: 'Name and number',
  template: 'Template',
  audience: 'Audience',
  mapping: 'Placeholders',
  schedule: 'Schedule',
  review: 'Review',
};

/** The largest CSV file the wizard carries from step to step; larger files go through the API. */
export const CSV_MAX_CHARS = 1_000_000;
export const MAX_PLACEHOLDERS = CAMPAIGN_LIMITS.parameters;
/** A template has at most 10 buttons (the network's limit); a link button's value goes by its index. */
const MAX_BUTTONS = 10;
const BUTTON_INPUTS = Array.from({ length: MAX_BUTTONS }, (_, i) => `button-${i}`);

export type Source = 'name' | 'phone' | 'attribute' | 'column' | 'value';
export const SOURCES: readonly Source[] = ['name', 'phone', 'attribute', 'column', 'value'];

export interface WizardForm {
  step: Step;
  name: string;
  from: string;
  /** `name@language` of the chosen template (neither may hold an @). */
  template: string;
  audience: 'tags' | 'csv';
  tags: string;
  csv: string;
  /** The header's text parameter, or its media link, when the template's header needs one. */
  header: string;
  /** The end of each link button's URL (its `{{1}}`), by the button's index. */
  buttons: string[];
  sources: string[];
  values: string[];
  fallbacks: string[];
  when: 'now' | 'later';
  startAt: string;
  timeZone: string;
  /** The browser's own zone, filled in by portal.js: the schedule's default. */
  browserZone: string;
}

/** What the template asks of a campaign besides its audience. */
export interface TemplateNeeds {
  placeholders: number;
  header: 'none' | 'TEXT' | 'IMAGE' | 'VIDEO' | 'DOCUMENT';
  /** The link buttons whose URL ends with {{1}}: each send gives the end of the link. */
  linkButtons: { index: number; text: string; url: string }[];
}

/**
 * The form's words for a link button's value left empty, at the input `button-<index>` (or the name the
 * caller gives its inputs). Undefined when every link button has its value.
 */
export function missingButtonValue(
  needs: TemplateNeeds,
  valueAt: (index: number) => string,
  inputName = (index: number) => `button-${index}`,
): GatewayError | undefined {
  const missing = needs.linkButtons.find((b) => valueAt(b.index).trim() === '');
  if (!missing) return undefined;
  return new GatewayError(
    'invalid_request',
    `Enter the end of the link of the button "${missing.text}": it opens ${missing.url}, with {{1}} replaced by what you enter.`,
    { field: inputName(missing.index) },
  );
}

/** The link buttons' values as a send gives them (`[{index, parameter}]`), the empty ones left out. */
export function buttonParameters(
  needs: TemplateNeeds,
  valueAt: (index: number) => string,
): { index: number; parameter: string }[] {
  return needs.linkButtons
    .map((b) => ({ index: b.index, parameter: valueAt(b.index).trim() }))
    .filter((b) => b.parameter !== '');
}

/**
 * A refusal in the words of this form: the API names a placeholder `parameters[1].value`, counting from 0;
 * the form shows it as {{2}}, the placeholder the person sees.
 */
export function inWizardWords(message: string): string {
  return message.replace(/`parameters\[(\d+)\](?:\.(\w+))?`/g, (_, index: string, part?: string) => {
    const placeholder = `{{${Number(index) + 1}}}`;
    return part === 'fallback' ? `The fallback of ${placeholder}` : `The value of ${placeholder}`;
  });
}

/**
 * The form's words for a header value left empty, where the API's name a JSON field: what to give, by
 * the header's kind. Undefined when the header needs no value, or has one.
 */
export function missingHeaderValue(needs: TemplateNeeds, value: string): GatewayError | undefined {
  if (needs.header === 'none' || value.trim() !== '') return undefined;
  const what =
    needs.header === 'TEXT'
      ? "Enter the header's value: this template's header has a variable ({{1}})."
      : `Enter the link (https) of the header's ${needs.header.toLowerCase()}: this template's header shows one.`;
  return new GatewayError('invalid_request', what, { field: 'header' });
}

/** The inputs each step shows; every other answer rides along hidden. */
function stepInputs(step: Step, needs: number): string[] {
  const n = Array.from({ length: needs }, (_, i) => i + 1);
  return {
    number: ['name', 'from'],
    template: ['template'],
    audience: ['audience', 'tags', 'csv'],
    mapping: [
      'header',
      ...BUTTON_INPUTS,
      ...n.flatMap((i) => [`source-${i}`, `value-${i}`, `fallback-${i}`]),
    ],
    schedule: ['when', 'startAt', 'timeZone'],
    review: [],
  }[step];
}

const oneOf = <T extends string>(value: string, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(value) ? (value as T) : fallback;

export function emptyForm(): WizardForm {
  return {
    step: 'number',
    name: '',
    from: '',
    template: '',
    audience: 'tags',
    tags: '',
    csv: '',
    header: '',
    buttons: [],
    sources: ['name'],
    values: [''],
    fallbacks: [''],
    when: 'now',
    startAt: '',
    timeZone: '',
    browserZone: '',
  };
}

/** The answers a step's POST carries; a missing one is empty, an overlong one a 400 naming it. */
export function readForm(body: unknown): WizardForm {
  const each = (prefix: string, max: number) =>
    Array.from({ length: MAX_PLACEHOLDERS }, (_, i) => field(body, `${prefix}-${i + 1}`, max));
  return {
    step: oneOf(field(body, 'step', 20), STEPS, 'number'),
    name: field(body, 'name', 4 * CAMPAIGN_LIMITS.name),
    from: field(body, 'from', 64),
    template: field(body, 'template', 600),
    audience: oneOf(field(body, 'audience', 10), ['tags', 'csv'] as const, 'tags'),
    tags: field(body, 'tags', 2000),
    csv: field(body, 'csv', CSV_MAX_CHARS),
    header: field(body, 'header', 4096),
    buttons: BUTTON_INPUTS.map((name) => field(body, name, 2000)),
    sources: each('source', 20),
    values: each('value', 4 * CAMPAIGN_LIMITS.value),
    fallbacks: each('fallback', 4 * CAMPAIGN_LIMITS.value),
    when: oneOf(field(body, 'when', 10), ['now', 'later'] as const, 'now'),
    startAt: field(body, 'startAt', 64),
    timeZone: field(body, 'timeZone', 64),
    browserZone: field(body, 'browserZone', 64),
  };
}

/** Every answer as name and value, placeholders up to the last one given. */
function pairs(form: WizardForm): [string, string][] {
  const out: [string, string][] = [
    ['name', form.name],
    ['from', form.from],
    ['template', form.template],
    ['audience', form.audience],
    ['tags', form.tags],
    ['csv', form.csv],
    ['header', form.header],
    ['when', form.when],
    ['startAt', form.startAt],
    ['timeZone', form.timeZone],
  ];
  form.buttons.forEach((value, i) => {
    if (value) out.push([`button-${i}`, value]);
  });
  form.sources.forEach((source, i) => {
    if (!source && !form.values[i] && !form.fallbacks[i]) return;
    out.push([`source-${i + 1}`, source], [`value-${i + 1}`, form.values[i] ?? '']);
    out.push([`fallback-${i + 1}`, form.fallbacks[i] ?? '']);
  });
  return out;
}

/** The answers of the other steps, hidden, so that this step's form carries them on. */
export function hiddenAnswers(form: WizardForm, step: Step, needs: number): SafeHtml {
  const shown = new Set(stepInputs(step, needs));
  return html`${pairs(form)
    .filter(([name, value]) => !shown.has(name) && value !== '')
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="browserZone" value="${form.browserZone}" data-browser-zone>`;
}

export function templateKey(name: string, language: string): string {
  return `${name}@${language}`;
}

export function templateOfKey(key: string): { name: string; language: string } | undefined {
  const at = key.lastIndexOf('@');
  if (at <= 0 || at === key.length - 1) return undefined;
  return { name: key.slice(0, at), language: key.slice(at + 1) };
}

export function tagsOf(form: WizardForm): string[] {
  return form.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** Placeholder i's chosen source; before any choice, the name for the first and a fixed value for others. */
export function sourceOf(form: WizardForm, i: number): string {
  return form.sources[i] || (i === 0 ? 'name' : 'value');
}

/** Placeholder i's source as the API names it; an unknown choice names none, for the domain to refuse. */
function placeholderInput(form: WizardForm, i: number): Record<string, string> {
  const source = sourceOf(form, i);
  const value = form.values[i] ?? '';
  const given = form.fallbacks[i] ?? '';
  const fallback: Record<string, string> = given ? { fallback: given } : {};
  if (source === 'name' || source === 'phone') return { field: source, ...fallback };
  if (source === 'attribute' || source === 'column') return { [source]: value.trim(), ...fallback };
  if (source === 'value') return { value };
  return {};
}

function headerInput(form: WizardForm, needs: TemplateNeeds): CampaignTemplate['header'] {
  if (needs.header === 'none' || form.header.trim() === '') return undefined;
  const value = form.header.trim();
  return needs.header === 'TEXT'
    ? { type: 'TEXT', parameter: value }
    : { type: needs.header, mediaUrl: value };
}

/** The campaign the answers describe, in the API's words. */
export function campaignInput(form: WizardForm, needs: TemplateNeeds): CampaignInput {
  const template = templateOfKey(form.template) ?? { name: '', language: '' };
  const header = headerInput(form, needs);
  const buttons = buttonParameters(needs, (i) => form.buttons[i] ?? '');
  const later = form.when === 'later';
  return {
    name: form.name,
    from: form.from,
    template: { ...template, ...(header ? { header } : {}), ...(buttons.length ? { buttons } : {}) },
    parameters: Array.from({ length: needs.placeholders }, (_, i) => placeholderInput(form, i)),
    audience: form.audience === 'csv' ? { csv: true } : { tags: tagsOf(form) },
    startAt: later ? form.startAt : null,
    timeZone: later ? form.timeZone : null,
  };
}

/**
 * The step and input a refusal belongs to, from the field the domain names (GatewayError.field); an
 * unknown field is the review step's, shown as the page's error.
 */
export function placeOf(apiField: string | undefined): { step: Step; input?: string } {
  const f = apiField ?? '';
  if (f === 'name' || f === 'from') return { step: 'number', input: f };
  if (f.startsWith('template.header')) return { step: 'mapping', input: 'header' };
  if (f.startsWith('template.buttons')) return { step: 'mapping', input: 'parameters' };
  if (f.startsWith('template')) return { step: 'template', input: 'template' };
  if (f === 'file' || f === 'csv' || f === 'audience.csv') return { step: 'audience', input: 'csv' };
  if (f === 'audience') return { step: 'audience', input: 'audience' };
  if (f.startsWith('audience')) return { step: 'audience', input: 'tags' };
  const placeholder = /^parameters\[(\d+)\](?:\.(\w+))?/.exec(f);
  if (placeholder) {
    const n = Number(placeholder[1]) + 1;
    const part = placeholder[2];
    const input = part === 'fallback' ? 'fallback' : part && part !== 'field' ? 'value' : 'source';
    return { step: 'mapping', input: `${input}-${n}` };
  }
  if (f.startsWith('parameters')) return { step: 'mapping', input: 'parameters' };
  if (f === 'startAt' || f === 'timeZone') return { step: 'schedule', input: f };
  if (/^(source|value|fallback|button)-\d+$/.test(f) || f === 'header') return { step: 'mapping', input: f };
  if (f === 'tags') return { step: 'audience', input: 'tags' };
  if (f === 'when') return { step: 'schedule', input: 'when' };
  return { step: 'review' };
}

export const stepBefore = (step: Step): Step | undefined => STEPS[STEPS.indexOf(step) - 1];
export const stepAfter = (step: Step): Step => STEPS[STEPS.indexOf(step) + 1] ?? 'review';
