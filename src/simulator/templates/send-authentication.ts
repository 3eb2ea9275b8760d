/**
 * A send of an AUTHENTICATION template (docs/cloud-api.md §1.3 template): the one-time code goes twice, as
 * the body's one `text` parameter and as the one `text` parameter of the `url` button at index 0 (the
 * OTP button, whose link carries the code). No header, no carousel. The code is at most 15 characters,
 * and both must be the same code.
 */

import { charCount, type Json } from '../validate-fields.ts';
import type { FilledParameters } from './filled-template.ts';
import type { TemplateContent } from './model.ts';
import { countMismatch, parametersOf, positionOf, problem, type SendParts } from './send-values.ts';

export const CODE_MAX = 15;

/** The code of one text parameter at `at`. */
function codeOf(parameter: Json, at: string): string {
  if (parameter.type !== 'text') {
    throw problem(132012, `Parameter '${at}.type' must be text: it is the one-time code.`);
  }
  const code = parameter.text;
  if (typeof code !== 'string' || code.trim() === '') {
    throw problem(132008, `Parameter '${at}.text' must be the one-time code, not empty.`);
  }
  if (charCount(code) > CODE_MAX) {
    throw problem(
      132008,
      `Parameter '${at}.text' is the one-time code: at most ${CODE_MAX} characters (got ${charCount(code)}).`,
    );
  }
  return code;
}

function buttonCode(parts: SendParts, label: string): string {
  const [part, extra] = parts.buttons;
  if (extra) {
    throw problem(
      132000,
      `Parameter '${extra.path}' is a second button component: the template has one button, its OTP button.`,
    );
  }
  if (!part) throw countMismatch(label, 1, 0);
  if (positionOf(part.component.index) !== 0) {
    throw problem(
      132000,
      `Parameter '${part.path}.index' ${JSON.stringify(part.component.index)} names no button: the OTP button is index 0.`,
    );
  }
  if (part.component.sub_type !== 'url') {
    throw problem(
      132012,
      `Parameter '${part.path}.sub_type' must be url: the OTP button takes the code as a url parameter.`,
    );
  }
  const parameters = parametersOf(part);
  if (parameters.length !== 1) throw countMismatch(label, 1, parameters.length);
  return codeOf(parameters[0] as Json, `${part.path}.parameters[0]`);
}

export function fillAuthentication(content: TemplateContent, parts: SendParts): FilledParameters {
  const header = parametersOf(parts.header);
  if (header.length > 0) throw countMismatch('header', 0, header.length);
  if (parts.carousel) {
    throw problem(132000, `Parameter '${parts.carousel.path}' is a carousel: the template has no cards.`);
  }
  const body = parametersOf(parts.body);
  if (body.length !== 1) throw countMismatch('body', 1, body.length);
  const bodyPath = parts.body?.path ?? 'template.components[body]';
  const code = codeOf(body[0] as Json, `${bodyPath}.parameters[0]`);
  const again = buttonCode(parts, `button 0 (${content.buttons[0]?.type ?? 'OTP'})`);
  if (again !== code) {
    throw problem(
      132008,
      `Parameter '${parts.buttons[0]?.path}.parameters[0].text' must be the body's code: the button carries the same one-time code.`,
    );
  }
  return { body: [code], values: new Map([[0, code]]), payloads: new Map() };
}
