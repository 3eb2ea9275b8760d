/**
 * Meta's rules for a template definition (docs/contract.md §5, docs/cloud-api.md §4.2–§4.3), checked before the network
 * sees it so every violation is a 400 naming the field of the contract's body (docs/contract.md §5). What only the network's
 * review decides (a variable at the very start or end of the body, adjacent variables, too many variables
 * for the text) is left to the review: a template breaking those is accepted here, then REJECTED with
 * INVALID_FORMAT, exactly as it would be on WhatsApp.
 *
 * The result is the template in the network's upper-case component shape (docs/cloud-api.md §4.2), which is also
 * the shape the listing shows (docs/contract.md §5).
 */

import { normalizePhone } from '../../lib/phone.ts';
import { TEMPLATE_LANGUAGES } from '../../lib/template-languages.ts';
import { GatewayError } from '../errors.ts';
import {
  BUTTON_TYPES,
  HEADER_FORMATS,
  TEMPLATE_CATEGORIES,
  type TemplateBodyInput,
  type TemplateComponentsInput,
} from './template-body.ts';

/** docs/cloud-api.md §4.2–§4.3. */
export const LIMITS = {
  name: 512,
  headerText: 60,
  body: 1024,
  footer: 60,
  example: 1024,
  buttons: 10,
  quickReplies: 10,
  urlButtons: 2,
  phoneButtons: 1,
  buttonText: 25,
  url: 2000,
} as const;

const NAME = /^[a-z0-9_]+$/;
/** Anything in double braces is meant as a variable; only `{{n}}` is a positional one. */
const VARIABLE = /\{\{([^{}]*)\}\}/g;
/** Header text is plain: Meta refuses new lines and formatting characters there. */
const HEADER_FORBIDDEN = /[\n\r*~`]/;

export interface NetworkComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS';
  [key: string]: unknown;
}

export interface TemplateDefinition {
  name: string;
  language: string;
  category: (typeof TEMPLATE_CATEGORIES)[number];
  components: NetworkComponent[];
  /** Upload handles the header names; the caller checks that they are this account's. */
  mediaHandle?: { handle: string; format: 'IMAGE' | 'VIDEO' | 'DOCUMENT' };
}

const invalid = (field: string, message: string) => new GatewayError('invalid_request', message, { field });

const chars = (s: string) => [...s].length;

/** Positional variable numbers in order of appearance; a malformed variable is a 400 on `field`. */
export function variablesOf(text: string, field: string): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    const inner = match[1] ?? '';
    if (!/^[1-9]\d{0,2}$/.test(inner)) {
      throw invalid(
        field,
        `\`${field}\` has the variable "{{${inner}}}"; variables are numbered {{1}}, {{2}}, ...`,
      );
    }
    numbers.push(Number(inner));
  }
  return numbers;
}

/** Variables must be {{1}}..{{n}}, each new one the next number (a variable may repeat). */
function checkNumbering(numbers: number[], field: string): number {
  let highest = 0;
  for (const n of numbers) {
    if (n > highest + 1) {
      throw invalid(
        field,
        `\`${field}\` uses {{${n}}} before {{${highest + 1}}}; variables must be numbered in order from {{1}}`,
      );
    }
    highest = Math.max(highest, n);
  }
  return highest;
}

function requireText(value: string | undefined, field: string, max: number): string {
  if (value === undefined || value.trim() === '') throw invalid(field, `\`${field}\` is required`);
  if (chars(value) > max) {
    throw invalid(field, `\`${field}\` may be at most ${max} characters; it has ${chars(value)}`);
  }
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  const upper = value.toUpperCase();
  if (!(allowed as readonly string[]).includes(upper)) {
    throw invalid(field, `\`${field}\` must be one of ${allowed.join(', ')}; got "${value}"`);
  }
  return upper as T;
}

function header(input: NonNullable<TemplateComponentsInput['header']>, definition: TemplateDefinition) {
  const format = oneOf(input.format, HEADER_FORMATS, 'component.header.format');
  if (format !== 'TEXT') {
    if (input.text !== undefined) {
      throw invalid(
        'component.header.text',
        `\`component.header.text\` is only for a TEXT header, not ${format}`,
      );
    }
    const handle = requireText(input.example, 'component.header.example', 512);
    definition.mediaHandle = { handle, format };
    return { type: 'HEADER' as const, format, example: { header_handle: [handle] } };
  }
  const text = requireText(input.text, 'component.header.text', LIMITS.headerText);
  if (HEADER_FORBIDDEN.test(text)) {
    throw invalid(
      'component.header.text',
      '`component.header.text` must be one plain line: no new lines and no *, ~ or ` formatting',
    );
  }
  const variables = variablesOf(text, 'component.header.text');
  if (variables.length > 1 || (variables.length === 1 && variables[0] !== 1)) {
    throw invalid(
      'component.header.text',
      '`component.header.text` may hold one variable, and it must be {{1}}',
    );
  }
  if (variables.length === 0) {
    if (input.example !== undefined) {
      throw invalid(
        'component.header.example',
        '`component.header.example` is only for a header text with a variable {{1}}',
      );
    }
    return { type: 'HEADER' as const, format, text };
  }
  const example = requireText(input.example, 'component.header.example', LIMITS.example);
  return { type: 'HEADER' as const, format, text, example: { header_text: [example] } };
}

function body(input: TemplateComponentsInput['body']) {
  const text = requireText(input?.text, 'component.body.text', LIMITS.body);
  const count = checkNumbering(variablesOf(text, 'component.body.text'), 'component.body.text');
  const examples = input?.examples;
  if (count === 0) {
    if (examples !== undefined && examples.length > 0) {
      throw invalid(
        'component.body.examples',
        '`component.body.examples` is only for a body text with variables',
      );
    }
    return { type: 'BODY' as const, text };
  }
  if (examples?.length !== count) {
    throw invalid(
      'component.body.examples',
      `\`component.body.examples\` must hold one example per body variable: ${count} expected, ${examples?.length ?? 0} given`,
    );
  }
  examples.forEach((example, i) => {
    requireText(example, `component.body.examples[${i}]`, LIMITS.example);
  });
  return { type: 'BODY' as const, text, example: { body_text: [examples] } };
}

function footer(input: NonNullable<TemplateComponentsInput['footer']>) {
  const text = requireText(input.text, 'component.footer.text', LIMITS.footer);
  if (variablesOf(text, 'component.footer.text').length > 0) {
    throw invalid('component.footer.text', '`component.footer.text` may not contain variables');
  }
  return { type: 'FOOTER' as const, text };
}

function urlButton(input: NonNullable<TemplateComponentsInput['buttons']>[number], field: string) {
  const url = requireText(input.url, `${field}.url`, LIMITS.url);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url.replace(/\{\{1\}\}$/, 'x'));
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw invalid(`${field}.url`, `\`${field}.url\` must be an absolute http or https URL`);
  }
  const variables = variablesOf(url, `${field}.url`);
  if (variables.length > 1 || (variables.length === 1 && !url.endsWith('{{1}}'))) {
    throw invalid(`${field}.url`, `\`${field}.url\` may hold one variable, {{1}}, and only at its very end`);
  }
  if (variables.length === 0) {
    if (input.example !== undefined) {
      throw invalid(`${field}.example`, `\`${field}.example\` is only for a URL with a variable {{1}}`);
    }
    return { type: 'URL', text: input.text, url };
  }
  const example = requireText(input.example, `${field}.example`, LIMITS.url);
  if (!/^https?:\/\/\S+$/.test(example)) {
    throw invalid(`${field}.example`, `\`${field}.example\` must be a full example URL`);
  }
  return { type: 'URL', text: input.text, url, example: [example] };
}

function buttons(input: NonNullable<TemplateComponentsInput['buttons']>) {
  if (input.length === 0 || input.length > LIMITS.buttons) {
    throw invalid('component.buttons', `\`component.buttons\` must hold 1 to ${LIMITS.buttons} buttons`);
  }
  const counts = { QUICK_REPLY: 0, URL: 0, PHONE_NUMBER: 0 };
  const texts = new Map<string, number>();
  const out = input.map((button, i) => {
    const field = `component.buttons[${i}]`;
    const type = oneOf(button.type, BUTTON_TYPES, `${field}.type`);
    requireText(button.text, `${field}.text`, LIMITS.buttonText);
    const earlier = texts.get(button.text);
    if (earlier !== undefined) {
      throw invalid(
        `${field}.text`,
        `\`${field}.text\` repeats component.buttons[${earlier}].text; button labels must differ`,
      );
    }
    texts.set(button.text, i);
    counts[type]++;
    if (type !== 'URL' && (button.url !== undefined || button.example !== undefined)) {
      throw invalid(`${field}.url`, `\`${field}.url\` and \`example\` are only for URL buttons`);
    }
    if (type !== 'PHONE_NUMBER' && button.phoneNumber !== undefined) {
      throw invalid(`${field}.phoneNumber`, `\`${field}.phoneNumber\` is only for PHONE_NUMBER buttons`);
    }
    if (type === 'QUICK_REPLY') return { type, text: button.text };
    if (type === 'URL') return urlButton(button, field);
    const phone = normalizePhone(requireText(button.phoneNumber, `${field}.phoneNumber`, 64));
    if (!phone) {
      throw invalid(
        `${field}.phoneNumber`,
        `\`${field}.phoneNumber\` must be a valid phone number with country code`,
      );
    }
    return { type, text: button.text, phone_number: phone };
  });
  const limits = [
    ['QUICK_REPLY', LIMITS.quickReplies],
    ['URL', LIMITS.urlButtons],
    ['PHONE_NUMBER', LIMITS.phoneButtons],
  ] as const;
  for (const [type, max] of limits) {
    if (counts[type] > max) {
      throw invalid(
        'component.buttons',
        `\`component.buttons\` may hold at most ${max} ${type} button${max > 1 ? 's' : ''}; it has ${counts[type]}`,
      );
    }
  }
  // Quick replies sit together, before or after the others (docs/cloud-api.md §4.3).
  const kinds = out.map((b) => (b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
  if (/q+o+q|o+q+o/.test(kinds)) {
    throw invalid(
      'component.buttons',
      '`component.buttons`: QUICK_REPLY buttons must be grouped together, all before or all after the URL and PHONE_NUMBER buttons',
    );
  }
  return { type: 'BUTTONS' as const, buttons: out };
}

/** The create/update body checked and turned into the network's shape. */
export function checkTemplate(
  input: TemplateBodyInput,
  options: { nameMaxLength: number },
): TemplateDefinition {
  if (!NAME.test(input.name) || chars(input.name) > options.nameMaxLength) {
    throw invalid(
      'name',
      `\`name\` must be 1 to ${options.nameMaxLength} lowercase letters, digits and underscores, with no spaces`,
    );
  }
  if (!TEMPLATE_LANGUAGES.includes(input.language)) {
    throw invalid(
      'language',
      `\`language\` "${input.language}" is not a template language the network accepts (e.g. en, en_US, es, pt_BR, fr)`,
    );
  }
  const category = oneOf(input.category, TEMPLATE_CATEGORIES, 'category');
  if (input.component && input.components) {
    throw invalid('components', '`component` and `components` are two spellings of one field; send one');
  }
  const parts = input.component ?? input.components;
  if (!parts) throw invalid('component', '`component` with at least a `body` is required');
  const definition: TemplateDefinition = {
    name: input.name,
    language: input.language,
    category,
    components: [],
  };
  if (parts.header) definition.components.push(header(parts.header, definition));
  definition.components.push(body(parts.body));
  if (parts.footer) definition.components.push(footer(parts.footer));
  if (parts.buttons) definition.components.push(buttons(parts.buttons));
  return definition;
}
