/**
 * The fields of a text template as the portal asks for them (name, language, category, a header with its
 * example, a body with its examples, a footer), their request to the API's template functions, and
 * where each of the API's field names lands on the form. Used to create a template and to edit one.
 */
import { TEMPLATE_CATEGORIES, type TemplateBodyInput } from '../../domain/templates/template-body.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { input, select, textarea } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';

export const FORM_FIELDS = [
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
export type FormField = (typeof FORM_FIELDS)[number];
export type Form = Record<FormField, string>;

/** The API's field names (what its errors name) → this form's inputs. */
export function formFieldOf(apiField: string | undefined): FormField | undefined {
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

export function requestBody(form: Form): TemplateBodyInput {
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

type Component = { type?: string; format?: string; text?: string; example?: Record<string, unknown> };

/**
 * The form filled from a template, to edit it; null when the template has more than the form can show
 * (buttons, a media header, a carousel, an authentication template), which the API edits.
 */
export function formOf(phone: string, t: TemplateView): Form | null {
  const components = t.components as Component[];
  if (t.category === 'AUTHENTICATION') return null;
  if (components.some((c) => !['HEADER', 'BODY', 'FOOTER'].includes(c.type ?? ''))) return null;
  const part = (type: string) => components.find((c) => c.type === type);
  const header = part('HEADER');
  if (header && header.format !== 'TEXT') return null;
  const headerExample = (header?.example?.header_text as unknown[] | undefined)?.[0];
  const bodyExamples = (part('BODY')?.example?.body_text as unknown[][] | undefined)?.[0] ?? [];
  return {
    phone,
    name: t.name,
    language: t.language,
    category: t.category,
    headerText: header?.text ?? '',
    headerExample: typeof headerExample === 'string' ? headerExample : '',
    bodyText: part('BODY')?.text ?? '',
    bodyExamples: bodyExamples.filter((e) => typeof e === 'string').join('\n'),
    footerText: part('FOOTER')?.text ?? '',
  };
}

/** Authentication templates have texts the network writes: made through the API, not these forms. */
const FORM_CATEGORIES = TEMPLATE_CATEGORIES.filter((c) => c !== 'AUTHENTICATION');

/** The category, with its error. */
export function categoryField(form: Form, e: Partial<Record<FormField, string>>): SafeHtml {
  return select({
    name: 'category',
    label: 'Category',
    value: form.category,
    error: e.category,
    options: FORM_CATEGORIES,
  });
}

/** The category and the texts of a template, each input with its error. */
export function contentFields(form: Form, e: Partial<Record<FormField, string>>): SafeHtml {
  return html`${categoryField(form, e)}
${textFields(form, e)}`;
}

/** The texts of a template (header, body, footer), each input with its error. */
export function textFields(form: Form, e: Partial<Record<FormField, string>>): SafeHtml {
  return html`${input({ name: 'headerText', label: 'Header text (optional)', value: form.headerText, error: e.headerText, hint: 'At most 60 characters and one variable {{1}}.' })}
${input({ name: 'headerExample', label: 'Header example (if the header has {{1}})', value: form.headerExample, error: e.headerExample })}
${textarea({ name: 'bodyText', label: 'Body', value: form.bodyText, error: e.bodyText, hint: 'At most 1024 characters; variables {{1}}, {{2}}… numbered in order.', required: true })}
${textarea({ name: 'bodyExamples', label: 'Body examples, one per line (one per variable)', value: form.bodyExamples, error: e.bodyExamples, rows: 3 })}
${input({ name: 'footerText', label: 'Footer (optional)', value: form.footerText, error: e.footerText, hint: 'At most 60 characters, no variables.' })}`;
}
