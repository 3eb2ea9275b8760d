/**
 * The parameters of a template send (docs/cloud-api.md §1.3 template) checked against the approved template:
 * each component must carry exactly the parameters the template has variables for, else 132000 naming the
 * component and the expected count; a parameter of the wrong kind is 132012; a text parameter longer than
 * 1024 characters is 132008; a filled-in header or body longer than its limit is 132005. An authentication
 * template (send-authentication.ts) and a carousel's cards (send-carousel.ts) have rules of their own.
 */
import { charCount } from '../validate-fields.ts';
import type { FilledHeader, FilledParameters } from './filled-template.ts';
import type { TemplateContent } from './model.ts';
import { fillAuthentication } from './send-authentication.ts';
import { buttonParameters } from './send-buttons.ts';
import { fillCards } from './send-carousel.ts';
import {
  bodyValues,
  countMismatch,
  HYDRATED_LIMITS,
  type Located,
  mediaHeader,
  parametersOf,
  problem,
  splitComponents,
  textValue,
} from './send-values.ts';
import { fillVariables } from './variables.ts';

function headerOf(content: TemplateContent, part: Located | undefined): FilledHeader | undefined {
  const header = content.header;
  const parameters = parametersOf(part);
  const expected = header && (header.format !== 'TEXT' || header.variables > 0) ? 1 : 0;
  if (parameters.length !== expected) throw countMismatch('header', expected, parameters.length);
  if (!header) return undefined;
  const at = `${part?.path ?? 'template.components[header]'}.parameters[0]`;
  if (header.format !== 'TEXT') {
    const what = `the template has a ${header.format} header`;
    return mediaHeader(header.format.toLowerCase(), parameters[0], at, what);
  }
  const parameter = parameters[0];
  const text = parameter ? fillVariables(header.text ?? '', [textValue(parameter, at)]) : (header.text ?? '');
  if (charCount(text) > HYDRATED_LIMITS.header) {
    throw problem(
      132005,
      `The filled-in header is ${charCount(text)} characters; at most ${HYDRATED_LIMITS.header}.`,
    );
  }
  return { type: 'text', text };
}

/** Reads `template.components` of a send against the template; throws a GraphProblem on a mismatch. */
export function fillParameters(content: TemplateContent, raw: unknown): FilledParameters {
  const parts = splitComponents(raw, 'template.components', ['header', 'body', 'carousel']);
  if (content.buttons.some((button) => button.type === 'OTP')) return fillAuthentication(content, parts);
  if (parts.carousel && !content.carousel) {
    throw problem(132000, `Parameter '${parts.carousel.path}' is a carousel: the template has no cards.`);
  }
  const header = headerOf(content, parts.header);
  const body = bodyValues(content.body, parts.body);
  const buttons = buttonParameters(content.buttons, parts.buttons);
  const cards = content.carousel ? fillCards(content.carousel, parts.carousel) : undefined;
  return { ...(header ? { header } : {}), body, ...buttons, ...(cards ? { cards } : {}) };
}
