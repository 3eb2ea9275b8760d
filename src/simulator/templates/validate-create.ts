/**
 * Meta's checks of a template create body (docs/cloud-api.md §4.2, §4.3), made when the template is submitted:
 * each refusal is code 100 naming the field (errors.ts). What only the review decides (variable placement
 * and density, review.ts) is not checked here, as on WhatsApp: such a template is accepted as PENDING,
 * then REJECTED.
 *
 * Positional variables only: `parameter_format: "NAMED"` is refused. Authentication (OTP) templates, whose
 * texts Meta writes itself, are refused too.
 */

import { TEMPLATE_LANGUAGES } from '../../lib/template-languages.ts';
import { isObject, type Json } from '../validate-fields.ts';
import { invalidField, SUBCODE, templateError } from './errors.ts';
import { HEADER_FORMATS, TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateContent } from './model.ts';
import { oneOf, requireArray, requireObject, requireText } from './read-fields.ts';
import { checkButtons } from './validate-buttons.ts';
import { countOrderedVariables, variablesOf } from './variables.ts';

export const TEXT_LIMITS = {
  name: 512,
  header: 60,
  body: 1024,
  footer: 60,
  example: 1024,
  handle: 512,
} as const;

const NAME = /^[a-z0-9_]+$/;
/** Header text is one plain line: Meta refuses new lines and formatting characters there. */
const HEADER_FORBIDDEN = /[\n\r*~`]/;
const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'] as const;

export interface CreateRequest {
  name: string;
  language: string;
  category: TemplateCategory;
  content: TemplateContent;
}

function header(input: Json, content: TemplateContent): Json {
  const format = oneOf(input.format, HEADER_FORMATS, 'components.HEADER.format');
  if (format === 'LOCATION') {
    content.header = { format, variables: 0 };
    return { type: 'HEADER', format };
  }
  if (format !== 'TEXT') {
    const example = requireObject(input.example, 'components.HEADER.example');
    const handles = requireArray(example.header_handle, 'components.HEADER.example.header_handle');
    if (handles.length !== 1) {
      throw invalidField('components.HEADER.example.header_handle', 'must hold exactly one media handle');
    }
    const handle = requireText(
      { h: handles[0] },
      'h',
      'components.HEADER.example.header_handle[0]',
      TEXT_LIMITS.handle,
    );
    content.header = { format, variables: 0 };
    return { type: 'HEADER', format, example: { header_handle: [handle] } };
  }
  const text = requireText(input, 'text', 'components.HEADER.text', TEXT_LIMITS.header);
  if (HEADER_FORBIDDEN.test(text)) {
    throw invalidField(
      'components.HEADER.text',
      'must be one plain line: no new lines and no *, ~ or ` formatting',
      SUBCODE.headerOrBodyFormat,
    );
  }
  const variables = variablesOf(text, 'components.HEADER.text');
  if (variables.length > 1 || (variables.length === 1 && variables[0] !== 1)) {
    throw invalidField('components.HEADER.text', 'may hold one variable, {{1}}', SUBCODE.headerOrBodyFormat);
  }
  content.header = { format, text, variables: variables.length };
  if (variables.length === 0) return { type: 'HEADER', format, text };
  const example = requireObject(input.example, 'components.HEADER.example');
  const samples = requireArray(example.header_text, 'components.HEADER.example.header_text');
  if (samples.length !== 1) {
    throw invalidField(
      'components.HEADER.example.header_text',
      'must hold one example for the header variable',
      SUBCODE.headerOrBodyFormat,
    );
  }
  const sample = requireText(
    { s: samples[0] },
    's',
    'components.HEADER.example.header_text[0]',
    TEXT_LIMITS.header,
  );
  return { type: 'HEADER', format, text, example: { header_text: [sample] } };
}

function body(input: Json, content: TemplateContent): Json {
  const text = requireText(input, 'text', 'components.BODY.text', TEXT_LIMITS.body);
  const variables = countOrderedVariables(text, 'components.BODY.text');
  content.body = { text, variables };
  if (variables === 0) return { type: 'BODY', text };
  const example = requireObject(input.example, 'components.BODY.example');
  const rows = requireArray(example.body_text, 'components.BODY.example.body_text');
  const row = rows.length === 1 && Array.isArray(rows[0]) ? (rows[0] as unknown[]) : undefined;
  if (!row || row.length !== variables) {
    throw invalidField(
      'components.BODY.example.body_text',
      `must be [[...]] with one example per body variable (${variables} expected)`,
      SUBCODE.headerOrBodyFormat,
    );
  }
  const samples = row.map((s, i) =>
    requireText({ s }, 's', `components.BODY.example.body_text[0][${i}]`, TEXT_LIMITS.example),
  );
  return { type: 'BODY', text, example: { body_text: [samples] } };
}

function footer(input: Json, content: TemplateContent): Json {
  const text = requireText(input, 'text', 'components.FOOTER.text', TEXT_LIMITS.footer);
  if (/\{\{|\}\}/.test(text)) {
    throw invalidField('components.FOOTER.text', 'may not contain variables', SUBCODE.footerFormat);
  }
  content.footer = text;
  return { type: 'FOOTER', text };
}

/** Checks `components` for a template of `category`; the wire shape is kept in the content. */
export function checkComponents(raw: unknown, category: TemplateCategory): TemplateContent {
  const list = requireArray(raw, 'components');
  const content: TemplateContent = { components: [], body: { text: '', variables: 0 }, buttons: [] };
  const seen = new Set<string>();
  const wire = new Map<string, Json>();
  list.forEach((item, i) => {
    const input = requireObject(item, `components[${i}]`);
    const type = oneOf(input.type, COMPONENT_TYPES, `components[${i}].type`);
    if (seen.has(type))
      throw invalidField(`components[${i}].type`, `repeats ${type}; each component appears once`);
    seen.add(type);
    if (type === 'HEADER') wire.set(type, header(input, content));
    else if (type === 'BODY') wire.set(type, body(input, content));
    else if (type === 'FOOTER') wire.set(type, footer(input, content));
    else {
      const checked = checkButtons(input, category);
      content.buttons = checked.buttons;
      wire.set(type, checked.wire);
    }
  });
  if (!seen.has('BODY')) throw invalidField('components', 'must include a BODY component');
  // Listed in Meta's order, whatever order they were sent in.
  content.components = COMPONENT_TYPES.flatMap((type): Json[] => {
    const component = wire.get(type);
    return component ? [component] : [];
  });
  return content;
}

export function checkCategory(value: unknown): TemplateCategory {
  const category = oneOf(value, TEMPLATE_CATEGORIES, 'category');
  if (category === 'AUTHENTICATION') {
    throw templateError(
      "Parameter 'category' AUTHENTICATION is not simulated: one-time-password templates are written by Meta, not submitted.",
      'Unsupported template category',
    );
  }
  return category;
}

export function checkCreateBody(raw: unknown): CreateRequest {
  if (!isObject(raw)) throw templateError('The request body must be a JSON object.', 'Invalid template');
  const name = requireText(raw, 'name', 'name', TEXT_LIMITS.name);
  if (!NAME.test(name)) {
    throw invalidField('name', 'may hold only lowercase letters, digits and underscores');
  }
  const language = raw.language;
  if (typeof language !== 'string' || !TEMPLATE_LANGUAGES.includes(language)) {
    throw invalidField(
      'language',
      `must be a template language code such as en, en_US or pt_BR (got ${JSON.stringify(language)})`,
    );
  }
  const category = checkCategory(raw.category);
  if (raw.parameter_format !== undefined && raw.parameter_format !== 'POSITIONAL') {
    throw invalidField('parameter_format', 'must be POSITIONAL: named parameters are not simulated');
  }
  return { name, language, category, content: checkComponents(raw.components, category) };
}
