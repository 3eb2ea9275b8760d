/**
 * The BUTTONS component of a template (docs/cloud-api.md §4.2, §4.3): at most 10 buttons, quick replies grouped
 * together, at most 2 URL, 1 PHONE_NUMBER and 1 COPY_CODE (marketing only) buttons, labels ≤ 25 characters,
 * and a URL with at most one variable, `{{1}}` at its very end, shown by an example. OTP buttons belong to
 * authentication templates only (validate-authentication.ts checks them there).
 */
import { normalizePhone } from '../../lib/phone.ts';
import type { Json } from '../validate-fields.ts';
import { invalidField } from './errors.ts';
import { BUTTON_TYPES, type ButtonType, type TemplateButton, type TemplateCategory } from './model.ts';
import { oneOf, requireArray, requireObject, requireText } from './read-fields.ts';
import { variablesOf } from './variables.ts';

export const BUTTON_LIMITS = {
  total: 10,
  QUICK_REPLY: 10,
  URL: 2,
  PHONE_NUMBER: 1,
  COPY_CODE: 1,
  OTP: 1,
  text: 25,
  url: 2000,
  couponExample: 15,
} as const;

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function urlButton(input: Json, field: string, text: string): { wire: Json; button: TemplateButton } {
  const url = requireText(input, 'url', `${field}.url`, BUTTON_LIMITS.url);
  const variables = variablesOf(url, `${field}.url`);
  if (variables.length > 1 || (variables.length === 1 && !/\{\{1\}\}$/.test(url))) {
    throw invalidField(`${field}.url`, 'may hold one variable, {{1}}, and only at its very end');
  }
  if (!isWebUrl(url.replace(/\{\{1\}\}$/, 'x'))) {
    throw invalidField(`${field}.url`, 'must be an absolute http or https URL');
  }
  if (variables.length === 0) {
    if (input.example !== undefined) {
      throw invalidField(`${field}.example`, 'is only for a URL ending in the variable {{1}}');
    }
    return { wire: { type: 'URL', text, url }, button: { type: 'URL', text, url, urlHasVariable: false } };
  }
  const example = requireArray(input.example, `${field}.example`);
  if (example.length !== 1) throw invalidField(`${field}.example`, 'must hold exactly one example URL');
  const sample = requireText({ example: example[0] }, 'example', `${field}.example[0]`, BUTTON_LIMITS.url);
  if (!isWebUrl(sample)) throw invalidField(`${field}.example[0]`, 'must be a full example URL');
  return {
    wire: { type: 'URL', text, url, example: [sample] },
    button: { type: 'URL', text, url, urlHasVariable: true },
  };
}

/** One button of a MARKETING or UTILITY template, or of a carousel card, at `field`. */
export function oneButton(
  raw: unknown,
  field: string,
  category: TemplateCategory,
): { wire: Json; button: TemplateButton } {
  const input = requireObject(raw, field);
  const type = oneOf(input.type, BUTTON_TYPES, `${field}.type`);
  if (type === 'OTP') throw invalidField(`${field}.type`, 'OTP is for AUTHENTICATION templates only');
  if (type === 'COPY_CODE') {
    if (category !== 'MARKETING')
      throw invalidField(`${field}.type`, 'COPY_CODE is for MARKETING templates only');
    const example = requireText(input, 'example', `${field}.example`, BUTTON_LIMITS.couponExample);
    // The label is Meta's own; a template cannot choose it.
    const text = 'Copy offer code';
    return { wire: { type, example }, button: { type, text, urlHasVariable: false } };
  }
  const text = requireText(input, 'text', `${field}.text`, BUTTON_LIMITS.text);
  if (type === 'URL') return urlButton(input, field, text);
  if (type === 'PHONE_NUMBER') {
    const given = requireText(input, 'phone_number', `${field}.phone_number`, 20);
    const phone = normalizePhone(given);
    if (!phone) throw invalidField(`${field}.phone_number`, 'must be a phone number with its country code');
    return {
      wire: { type, text, phone_number: given },
      button: { type, text, phoneNumber: phone, urlHasVariable: false },
    };
  }
  return { wire: { type, text }, button: { type, text, urlHasVariable: false } };
}

export function checkButtons(
  component: Json,
  category: TemplateCategory,
): { wire: Json; buttons: TemplateButton[] } {
  const list = requireArray(component.buttons, 'components.BUTTONS.buttons');
  if (list.length === 0 || list.length > BUTTON_LIMITS.total) {
    throw invalidField(
      'components.BUTTONS.buttons',
      `must hold 1 to ${BUTTON_LIMITS.total} buttons (got ${list.length})`,
    );
  }
  const checked = list.map((raw, i) => oneButton(raw, `components.BUTTONS.buttons[${i}]`, category));
  const counts = new Map<ButtonType, number>();
  for (const { button } of checked) counts.set(button.type, (counts.get(button.type) ?? 0) + 1);
  for (const type of BUTTON_TYPES) {
    const count = counts.get(type) ?? 0;
    if (count > BUTTON_LIMITS[type]) {
      throw invalidField(
        'components.BUTTONS.buttons',
        `may hold at most ${BUTTON_LIMITS[type]} ${type} button${BUTTON_LIMITS[type] > 1 ? 's' : ''} (got ${count})`,
      );
    }
  }
  // Quick replies sit together, all before or all after the other buttons (docs/cloud-api.md §4.3).
  const kinds = checked.map(({ button }) => (button.type === 'QUICK_REPLY' ? 'q' : 'o')).join('');
  if (/q+o+q|o+q+o/.test(kinds)) {
    throw invalidField(
      'components.BUTTONS.buttons',
      'must group the QUICK_REPLY buttons together, all before or all after the other buttons',
    );
  }
  return {
    wire: { type: 'BUTTONS', buttons: checked.map((c) => c.wire) },
    buttons: checked.map((c) => c.button),
  };
}
