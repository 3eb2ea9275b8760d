/**
 * Meta's checks of a template create body (docs/cloud-api.md §4.2, §4.3), made when the template is submitted:
 * each refusal is code 100 naming the field (errors.ts). What only the review decides (variable placement
 * and density, review.ts) is not checked here, as on WhatsApp: such a template is accepted as PENDING,
 * then REJECTED.
 *
 * Three shapes: a template of HEADER, BODY, FOOTER and BUTTONS (validate-text-parts.ts,
 * validate-buttons.ts); an AUTHENTICATION template, whose texts WhatsApp writes
 * (validate-authentication.ts); a MARKETING carousel of BODY and CAROUSEL (validate-carousel.ts).
 * Positional variables only: `parameter_format: "NAMED"` is refused.
 */

import { TEMPLATE_LANGUAGES } from '../../lib/template-languages.ts';
import { isObject, type Json } from '../validate-fields.ts';
import { invalidField, templateError } from './errors.ts';
import { TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateContent } from './model.ts';
import { oneOf, requireArray, requireObject, requireText } from './read-fields.ts';
import { authenticationContent, checkTtl } from './validate-authentication.ts';
import { checkButtons } from './validate-buttons.ts';
import { carouselContent } from './validate-carousel.ts';
import { checkBody, checkFooter, checkHeader, TEXT_LIMITS } from './validate-text-parts.ts';

const NAME = /^[a-z0-9_]+$/;
/** In Meta's listing order, whatever order they were sent in. */
const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL'] as const;

type Parts = Map<string, { input: Json; at: string }>;

export interface CreateRequest {
  name: string;
  language: string;
  category: TemplateCategory;
  content: TemplateContent;
  messageSendTtlSeconds?: number;
}

/** The components by type, each at most once, with where each was. */
function componentParts(raw: unknown): Parts {
  const list = requireArray(raw, 'components');
  const parts: Parts = new Map();
  list.forEach((item, i) => {
    const input = requireObject(item, `components[${i}]`);
    const type = oneOf(input.type, COMPONENT_TYPES, `components[${i}].type`);
    if (parts.has(type))
      throw invalidField(`components[${i}].type`, `repeats ${type}; each component appears once`);
    parts.set(type, { input, at: `components[${i}]` });
  });
  return parts;
}

/** A template of header, body, footer and buttons. */
function standardContent(parts: Parts, category: TemplateCategory, body: ReturnType<typeof checkBody>) {
  const content: TemplateContent = { components: [], body: body.body, buttons: [] };
  const wire = new Map<string, Json>([['BODY', body.wire]]);
  const header = parts.get('HEADER');
  if (header) {
    const checked = checkHeader(header.input);
    content.header = checked.header;
    wire.set('HEADER', checked.wire);
  }
  const footer = parts.get('FOOTER');
  if (footer) {
    const checked = checkFooter(footer.input);
    content.footer = checked.footer;
    wire.set('FOOTER', checked.wire);
  }
  const buttons = parts.get('BUTTONS');
  if (buttons) {
    const checked = checkButtons(buttons.input, category);
    content.buttons = checked.buttons;
    wire.set('BUTTONS', checked.wire);
  }
  content.components = COMPONENT_TYPES.flatMap((type): Json[] => {
    const component = wire.get(type);
    return component ? [component] : [];
  });
  return content;
}

/** Checks `components` for a template of `category`; the wire shape is kept in the content. */
export function checkComponents(raw: unknown, category: TemplateCategory): TemplateContent {
  const parts = componentParts(raw);
  if (category === 'AUTHENTICATION') return authenticationContent(parts);
  const body = parts.get('BODY');
  if (!body) throw invalidField('components', 'must include a BODY component');
  const checkedBody = checkBody(body.input);
  if (parts.has('CAROUSEL')) return carouselContent(parts, category, checkedBody);
  return standardContent(parts, category, checkedBody);
}

export function checkCategory(value: unknown): TemplateCategory {
  return oneOf(value, TEMPLATE_CATEGORIES, 'category');
}

/** `message_send_ttl_seconds`: kept for authentication templates (validate-authentication.ts). */
export function checkSendTtl(value: unknown, category: TemplateCategory): number | undefined {
  if (value === undefined) return undefined;
  if (category !== 'AUTHENTICATION') {
    throw invalidField('message_send_ttl_seconds', 'is simulated for AUTHENTICATION templates only');
  }
  return checkTtl(value);
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
  const ttl = checkSendTtl(raw.message_send_ttl_seconds, category);
  const content = checkComponents(raw.components, category);
  return { name, language, category, content, ...(ttl !== undefined ? { messageSendTtlSeconds: ttl } : {}) };
}
