/**
 * Meta's rules for the components of a template (docs/contract.md §5, docs/cloud-api.md §4.2–§4.3): header,
 * body, footer and buttons, each at the field it came from, so that a carousel card's parts are checked by the
 * same rules (check-template.ts puts them together by kind of template). They are checked before the network
 * sees them so every violation is a 400 naming the field of the contract's body, a variable at the very start
 * or end of the body included (the network refuses that at once). What only the network's review decides
 * (adjacent variables, too many variables for the text) is left to the review: a template breaking those is
 * accepted here, then REJECTED with INVALID_FORMAT, exactly as it would be on WhatsApp.
 *
 * The result is the template in the network's upper-case component shape (docs/cloud-api.md §4.2), which is also
 * the shape the listing shows (docs/contract.md §5).
 */

import { normalizePhone } from '../../lib/phone.ts';
import { GatewayError } from '../errors.ts';
import {
  BUTTON_TYPES,
  HEADER_FORMATS,
  type TEMPLATE_CATEGORIES,
  type TemplateButtonInput,
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

/** Anything in double braces is meant as a variable; only `{{n}}` is a positional one. */
const VARIABLE = /\{\{([^{}]*)\}\}/g;
/** Header text is plain: Meta refuses new lines and formatting characters there. */
const HEADER_FORBIDDEN = /[\n\r*~`]/;

export interface NetworkComponent {
  type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS' | 'CAROUSEL';
  [key: string]: unknown;
}

export type MediaFormat = 'IMAGE' | 'VIDEO' | 'DOCUMENT';

export interface TemplateDefinition {
  name: string;
  language: string;
  category: (typeof TEMPLATE_CATEGORIES)[number];
  components: NetworkComponent[];
  /**
   * Upload handles the headers name (one, or one per card), each with the field that gave it; the caller
   * checks that they are this account's.
   */
  mediaHandles: { handle: string; format: MediaFormat; field: string }[];
}

export const invalid = (field: string, message: string) =>
  new GatewayError('invalid_request', message, { field });

export const chars = (s: string) => [...s].length;

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
export function checkNumbering(numbers: number[], field: string): number {
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

export function requireText(value: string | undefined, field: string, max: number): string {
  if (value === undefined || value.trim() === '') throw invalid(field, `\`${field}\` is required`);
  if (chars(value) > max) {
    throw invalid(field, `\`${field}\` may be at most ${max} characters; it has ${chars(value)}`);
  }
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], field: string): T {
  const upper = value.toUpperCase();
  if (!(allowed as readonly string[]).includes(upper)) {
    throw invalid(field, `\`${field}\` must be one of ${allowed.join(', ')}; got "${value}"`);
  }
  return upper as T;
}

/** A header at `base` (`component.header`, or a card's); media handles are noted for the caller to check. */
export function header(
  input: NonNullable<TemplateComponentsInput['header']>,
  definition: Pick<TemplateDefinition, 'mediaHandles'>,
  base = 'component.header',
  formats: readonly (typeof HEADER_FORMATS)[number][] = HEADER_FORMATS,
) {
  const format = oneOf(input.format, formats, `${base}.format`);
  if (format !== 'TEXT') {
    if (input.text !== undefined) {
      throw invalid(`${base}.text`, `\`${base}.text\` is only for a TEXT header, not ${format}`);
    }
    const handle = requireText(input.example, `${base}.example`, 512);
    definition.mediaHandles.push({ handle, format, field: `${base}.example` });
    return { type: 'HEADER' as const, format, example: { header_handle: [handle] } };
  }
  const text = requireText(input.text, `${base}.text`, LIMITS.headerText);
  if (HEADER_FORBIDDEN.test(text)) {
    throw invalid(
      `${base}.text`,
      `\`${base}.text\` must be one plain line: no new lines and no *, ~ or \` formatting`,
    );
  }
  const variables = variablesOf(text, `${base}.text`);
  if (variables.length > 1 || (variables.length === 1 && variables[0] !== 1)) {
    throw invalid(`${base}.text`, `\`${base}.text\` may hold one variable, and it must be {{1}}`);
  }
  if (variables.length === 0) {
    if (input.example !== undefined) {
      throw invalid(`${base}.example`, `\`${base}.example\` is only for a header text with a variable {{1}}`);
    }
    return { type: 'HEADER' as const, format, text };
  }
  const example = requireText(input.example, `${base}.example`, LIMITS.example);
  return { type: 'HEADER' as const, format, text, example: { header_text: [example] } };
}

/**
 * A variable with nothing but white space before it, or after it, which the network always refuses. (It has
 * been seen to refuse some with punctuation after the last variable as well; those are left to it.)
 */
const WORDLESS_EDGE = /^\s*\{\{[^{}]*\}\}|\{\{[^{}]*\}\}\s*$/;

/** A body at `base` (`component.body`, or a card's, which has its own limit). */
export function body(
  input: TemplateComponentsInput['body'],
  base = 'component.body',
  max: number = LIMITS.body,
) {
  if (input?.addSecurityRecommendation !== undefined) {
    throw invalid(
      `${base}.addSecurityRecommendation`,
      `\`${base}.addSecurityRecommendation\` is only for AUTHENTICATION templates`,
    );
  }
  const text = requireText(input?.text, `${base}.text`, max);
  const count = checkNumbering(variablesOf(text, `${base}.text`), `${base}.text`);
  if (base === 'component.body' && WORDLESS_EDGE.test(text)) {
    throw invalid(
      `${base}.text`,
      `\`${base}.text\` must not start or end with a variable: the network refuses it; put words before the first variable and after the last`,
    );
  }
  const examples = input?.examples;
  if (count === 0) {
    if (examples !== undefined && examples.length > 0) {
      throw invalid(`${base}.examples`, `\`${base}.examples\` is only for a body text with variables`);
    }
    return { type: 'BODY' as const, text };
  }
  if (examples?.length !== count) {
    throw invalid(
      `${base}.examples`,
      `\`${base}.examples\` must hold one example per body variable: ${count} expected, ${examples?.length ?? 0} given`,
    );
  }
  examples.forEach((example, i) => {
    requireText(example, `${base}.examples[${i}]`, LIMITS.example);
  });
  return { type: 'BODY' as const, text, example: { body_text: [examples] } };
}

export function footer(input: NonNullable<TemplateComponentsInput['footer']>) {
  if (input.codeExpirationMinutes !== undefined) {
    throw invalid(
      'component.footer.codeExpirationMinutes',
      '`component.footer.codeExpirationMinutes` is only for AUTHENTICATION templates',
    );
  }
  const text = requireText(input.text, 'component.footer.text', LIMITS.footer);
  if (variablesOf(text, 'component.footer.text').length > 0) {
    throw invalid('component.footer.text', '`component.footer.text` may not contain variables');
  }
  return { type: 'FOOTER' as const, text };
}

function urlButton(input: TemplateButtonInput, field: string) {
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
    return { type: 'URL' as const, text: input.text, url };
  }
  const example = requireText(input.example, `${field}.example`, LIMITS.url);
  if (!/^https?:\/\/\S+$/.test(example)) {
    throw invalid(`${field}.example`, `\`${field}.example\` must be a full example URL`);
  }
  return { type: 'URL' as const, text: input.text, url, example: [example] };
}

/** Fields only an OTP button has: on any other button they are a mistake worth naming. */
const OTP_ONLY = ['otpType', 'autofillText', 'supportedApps'] as const;

function button(input: TemplateButtonInput, field: string) {
  if (input.type.toUpperCase() === 'OTP') {
    throw invalid(`${field}.type`, `\`${field}.type\` OTP is only for AUTHENTICATION templates`);
  }
  const type = oneOf(input.type, BUTTON_TYPES, `${field}.type`);
  requireText(input.text, `${field}.text`, LIMITS.buttonText);
  for (const key of OTP_ONLY) {
    if (input[key] !== undefined) {
      throw invalid(
        `${field}.${key}`,
        `\`${field}.${key}\` is only for the OTP button of an AUTHENTICATION template`,
      );
    }
  }
  if (type !== 'URL' && (input.url !== undefined || input.example !== undefined)) {
    throw invalid(`${field}.url`, `\`${field}.url\` and \`example\` are only for URL buttons`);
  }
  if (type !== 'PHONE_NUMBER' && input.phoneNumber !== undefined) {
    throw invalid(`${field}.phoneNumber`, `\`${field}.phoneNumber\` is only for PHONE_NUMBER buttons`);
  }
  if (type === 'QUICK_REPLY') return { type, text: input.text };
  if (type === 'URL') return urlButton(input, field);
  const phone = normalizePhone(requireText(input.phoneNumber, `${field}.phoneNumber`, 64));
  if (!phone) {
    throw invalid(
      `${field}.phoneNumber`,
      `\`${field}.phoneNumber\` must be a valid phone number with country code`,
    );
  }
  return { type, text: input.text, phone_number: phone };
}

/** The buttons at `base` (`component.buttons`, or a card's, which may hold at most two). */
export function buttons(
  input: TemplateButtonInput[],
  base = 'component.buttons',
  max: number = LIMITS.buttons,
) {
  if (input.length === 0 || input.length > max) {
    throw invalid(base, `\`${base}\` must hold 1 to ${max} buttons`);
  }
  const counts = { QUICK_REPLY: 0, URL: 0, PHONE_NUMBER: 0 };
  const texts = new Map<string, number>();
  const out = input.map((given, i) => {
    const field = `${base}[${i}]`;
    const checked = button(given, field);
    const earlier = texts.get(checked.text ?? '');
    if (earlier !== undefined) {
      throw invalid(
        `${field}.text`,
        `\`${field}.text\` repeats ${base}[${earlier}].text; button labels must differ`,
      );
    }
    texts.set(checked.text ?? '', i);
    counts[checked.type]++;
    return checked;
  });
  const limits = [
    ['QUICK_REPLY', LIMITS.quickReplies],
    ['URL', LIMITS.urlButtons],
    ['PHONE_NUMBER', LIMITS.phoneButtons],
  ] as const;
  for (const [type, most] of limits) {
    if (counts[type] > most) {
      throw invalid(
        base,
        `\`${base}\` may hold at most ${most} ${type} button${most > 1 ? 's' : ''}; it has ${counts[type]}`,
      );
    }
  }
  // Quick replies sit together, before or after the others (docs/cloud-api.md §4.3).
  const kinds = out.map((b) => (b.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
  if (/q+o+q|o+q+o/.test(kinds)) {
    throw invalid(
      base,
      `\`${base}\`: QUICK_REPLY buttons must be grouped together, all before or all after the URL and PHONE_NUMBER buttons`,
    );
  }
  return { type: 'BUTTONS' as const, buttons: out };
}
