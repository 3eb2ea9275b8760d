/**
 * The HEADER, BODY and FOOTER components of a template create body (docs/cloud-api.md §4.2, §4.3), at a
 * field prefix: `components` for the message's own, `components.CAROUSEL.cards[i]` for a carousel card's,
 * so every refusal names the field where it is.
 */
import type { Json } from '../validate-fields.ts';
import { invalidField, SUBCODE, templateError } from './errors.ts';
import { HEADER_FORMATS, type HeaderFormat, type TemplateContent } from './model.ts';
import { oneOf, requireArray, requireObject, requireText } from './read-fields.ts';
import { countOrderedVariables, VARIABLE_AT_END, VARIABLE_AT_START, variablesOf } from './variables.ts';

export const TEXT_LIMITS = {
  name: 512,
  header: 60,
  body: 1024,
  footer: 60,
  example: 1024,
  handle: 512,
} as const;

/** Header text is one plain line: Meta refuses new lines and formatting characters there. */
const HEADER_FORBIDDEN = /[\n\r*~`]/;

type Header = NonNullable<TemplateContent['header']>;

/** The one media handle of a media header's `example` (any non-empty handle is taken). */
export function mediaHandle(input: Json, prefix: string): string {
  const example = requireObject(input.example, `${prefix}.HEADER.example`);
  const handles = requireArray(example.header_handle, `${prefix}.HEADER.example.header_handle`);
  if (handles.length !== 1) {
    throw invalidField(`${prefix}.HEADER.example.header_handle`, 'must hold exactly one media handle');
  }
  const field = `${prefix}.HEADER.example.header_handle[0]`;
  return requireText({ h: handles[0] }, 'h', field, TEXT_LIMITS.handle);
}

function textHeader(input: Json, prefix: string): { wire: Json; header: Header } {
  const field = `${prefix}.HEADER.text`;
  const text = requireText(input, 'text', field, TEXT_LIMITS.header);
  if (HEADER_FORBIDDEN.test(text)) {
    throw invalidField(
      field,
      'must be one plain line: no new lines and no *, ~ or ` formatting',
      SUBCODE.headerOrBodyFormat,
    );
  }
  const variables = variablesOf(text, field);
  if (variables.length > 1 || (variables.length === 1 && variables[0] !== 1)) {
    throw invalidField(field, 'may hold one variable, {{1}}', SUBCODE.headerOrBodyFormat);
  }
  const header: Header = { format: 'TEXT', text, variables: variables.length };
  if (variables.length === 0) return { wire: { type: 'HEADER', format: 'TEXT', text }, header };
  const example = requireObject(input.example, `${prefix}.HEADER.example`);
  const samples = requireArray(example.header_text, `${prefix}.HEADER.example.header_text`);
  if (samples.length !== 1) {
    throw invalidField(
      `${prefix}.HEADER.example.header_text`,
      'must hold one example for the header variable',
      SUBCODE.headerOrBodyFormat,
    );
  }
  const sample = requireText(
    { s: samples[0] },
    's',
    `${prefix}.HEADER.example.header_text[0]`,
    TEXT_LIMITS.header,
  );
  return { wire: { type: 'HEADER', format: 'TEXT', text, example: { header_text: [sample] } }, header };
}

export function checkHeader(
  input: Json,
  prefix = 'components',
  formats: readonly HeaderFormat[] = HEADER_FORMATS,
): { wire: Json; header: Header } {
  const format = oneOf(input.format, formats, `${prefix}.HEADER.format`);
  if (format === 'LOCATION') return { wire: { type: 'HEADER', format }, header: { format, variables: 0 } };
  if (format === 'TEXT') return textHeader(input, prefix);
  const handle = mediaHandle(input, prefix);
  return {
    wire: { type: 'HEADER', format, example: { header_handle: [handle] } },
    header: { format, variables: 0 },
  };
}

export function checkBody(
  input: Json,
  prefix = 'components',
  max: number = TEXT_LIMITS.body,
): { wire: Json; body: TemplateContent['body'] } {
  const field = `${prefix}.BODY.text`;
  const text = requireText(input, 'text', field, max);
  const variables = countOrderedVariables(text, field);
  // Refused at the create, not by the review: Meta answers it at once (docs/cloud-api.md §4.3).
  if (prefix === 'components' && (VARIABLE_AT_START.test(text) || VARIABLE_AT_END.test(text)))
    throw templateError(
      "Variables can't be at the start or end of the template.",
      'Leading or trailing params not allowed',
      SUBCODE.leadingOrTrailingParams,
    );
  const body = { text, variables };
  if (variables === 0) return { wire: { type: 'BODY', text }, body };
  const example = requireObject(input.example, `${prefix}.BODY.example`);
  const rows = requireArray(example.body_text, `${prefix}.BODY.example.body_text`);
  const row = rows.length === 1 && Array.isArray(rows[0]) ? (rows[0] as unknown[]) : undefined;
  if (!row || row.length !== variables) {
    throw invalidField(
      `${prefix}.BODY.example.body_text`,
      `must be [[...]] with one example per body variable (${variables} expected)`,
      SUBCODE.headerOrBodyFormat,
    );
  }
  const samples = row.map((s, i) =>
    requireText({ s }, 's', `${prefix}.BODY.example.body_text[0][${i}]`, TEXT_LIMITS.example),
  );
  return { wire: { type: 'BODY', text, example: { body_text: [samples] } }, body };
}

export function checkFooter(input: Json, prefix = 'components'): { wire: Json; footer: string } {
  const field = `${prefix}.FOOTER.text`;
  const text = requireText(input, 'text', field, TEXT_LIMITS.footer);
  if (/\{\{|\}\}/.test(text)) throw invalidField(field, 'may not contain variables', SUBCODE.footerFormat);
  return { wire: { type: 'FOOTER', text }, footer: text };
}
