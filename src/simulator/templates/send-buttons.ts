/**
 * The `button` components of a template send (docs/cloud-api.md §1.3 template), for the template's own buttons
 * or a carousel card's: each names a button by `index` and `sub_type`, and gives what that button needs (a
 * URL suffix for a URL ending in `{{1}}`, a coupon code for a COPY_CODE button) or may give (a quick
 * reply's payload, which the user's tap sends back).
 */
import { charCount } from '../validate-fields.ts';
import type { ButtonParameters } from './filled-template.ts';
import type { TemplateButton } from './model.ts';
import { countMismatch, type Located, parametersOf, positionOf, problem, textValue } from './send-values.ts';

const SUB_TYPES: Record<string, TemplateButton['type']> = {
  url: 'URL',
  quick_reply: 'QUICK_REPLY',
  copy_code: 'COPY_CODE',
};

const COUPON_MAX = 15;

/** A quick reply's payload, if the send gave one. */
function payloadOf(part: Located, label: string): string | undefined {
  const parameters = parametersOf(part);
  if (parameters.length > 1) throw countMismatch(label, 1, parameters.length);
  const parameter = parameters[0];
  if (!parameter) return undefined;
  if (parameter.type !== 'payload' || typeof parameter.payload !== 'string' || parameter.payload === '') {
    throw problem(132012, `Parameter '${part.path}.parameters[0]' must be a payload parameter.`);
  }
  return parameter.payload;
}

/** The value a send gives one button (a coupon code, a URL suffix); none for a fixed URL. */
function givenValue(button: TemplateButton, part: Located, label: string): string | undefined {
  const parameters = parametersOf(part);
  const expected = button.type === 'COPY_CODE' || button.urlHasVariable ? 1 : 0;
  if (parameters.length !== expected) throw countMismatch(label, expected, parameters.length);
  const parameter = parameters[0];
  if (!parameter) return undefined;
  if (button.type === 'COPY_CODE') {
    const code = parameter.coupon_code;
    if (
      parameter.type !== 'coupon_code' ||
      typeof code !== 'string' ||
      code === '' ||
      charCount(code) > COUPON_MAX
    ) {
      throw problem(
        132012,
        `Parameter '${part.path}.parameters[0]' must be a coupon_code of 1 to ${COUPON_MAX} characters.`,
      );
    }
    return code;
  }
  if (parameter.type !== 'text')
    throw problem(132012, `Parameter '${part.path}.parameters[0].type' must be text.`);
  return textValue(parameter, `${part.path}.parameters[0]`);
}

/**
 * The values of `buttons` from the send's button components; `owner` names whose buttons they are in
 * errors ("" for the template's own, "card 1 " for a card's).
 */
export function buttonParameters(
  buttons: readonly TemplateButton[],
  parts: readonly Located[],
  owner = '',
): ButtonParameters {
  const given: ButtonParameters = { values: new Map(), payloads: new Map() };
  const seen = new Set<number>();
  for (const part of parts) {
    const rawIndex = part.component.index;
    const index = positionOf(rawIndex);
    const button = buttons[index];
    if (!button) {
      throw problem(
        132000,
        `Parameter '${part.path}.index' ${JSON.stringify(rawIndex)} names no button: the ${owner || 'template '}has ${buttons.length}.`,
      );
    }
    if (seen.has(index)) throw problem(100, `Parameter '${part.path}.index' repeats button ${index}.`);
    seen.add(index);
    const subType = part.component.sub_type;
    if ((typeof subType === 'string' ? SUB_TYPES[subType] : undefined) !== button.type) {
      throw problem(
        132012,
        `Parameter '${part.path}.sub_type' must match ${owner}button ${index}, a ${button.type} button.`,
      );
    }
    const label = `${owner}button ${index} (${button.type})`;
    if (button.type === 'QUICK_REPLY') {
      const payload = payloadOf(part, label);
      if (payload !== undefined) given.payloads.set(index, payload);
    } else {
      const value = givenValue(button, part, label);
      if (value !== undefined) given.values.set(index, value);
    }
  }
  buttons.forEach((button, index) => {
    const needsValue = button.type === 'COPY_CODE' || button.urlHasVariable;
    if (needsValue && !given.values.has(index)) {
      throw countMismatch(`${owner}button ${index} (${button.type})`, 1, 0);
    }
  });
  return given;
}
