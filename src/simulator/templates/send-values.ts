/**
 * Readers of a template send's parameters (docs/cloud-api.md §1.3 template), shared by the checks of each
 * kind of template: the send's components split by type, parameter lists, text values and media headers.
 * Every refusal is a Graph error naming the parameter: 132000 a count that does not fit the template,
 * 132012 a parameter of the wrong kind, 132008 a value that is not valid, 100 a wrong JSON shape.
 */
import { GraphProblem, graphError } from '../graph-errors.ts';
import { charCount, checkMediaSource, isObject, type Json } from '../validate-fields.ts';
import type { FilledHeader } from './filled-template.ts';
import type { TemplateContent } from './model.ts';
import { fillVariables } from './variables.ts';

export const TEXT_PARAMETER_MAX = 1024;
export const HYDRATED_LIMITS = { header: 60, body: 1024 } as const;

export const problem = (code: number, details: string) => new GraphProblem(graphError(code, details));

export function countMismatch(component: string, expected: number, given: number): GraphProblem {
  return problem(
    132000,
    `The ${component} component of the template expects ${expected} parameter${expected === 1 ? '' : 's'}, ${given} given.`,
  );
}

/** A component of the send and where it is (`template.components[i]`). */
export interface Located {
  component: Json;
  path: string;
}

export interface SendParts {
  header?: Located;
  body?: Located;
  buttons: Located[];
  carousel?: Located;
}

/** The send's `components` by type: header, body and carousel at most once, any number of buttons. */
export function splitComponents(raw: unknown, path: string, allowed: readonly string[]): SendParts {
  if (raw !== undefined && !Array.isArray(raw)) throw problem(100, `Parameter '${path}' must be an array.`);
  const parts: SendParts = { buttons: [] };
  (raw ?? []).forEach((item: unknown, i: number) => {
    const at = `${path}[${i}]`;
    if (!isObject(item)) throw problem(100, `Parameter '${at}' must be an object.`);
    const type = typeof item.type === 'string' ? item.type.toLowerCase() : item.type;
    if (type === 'button') parts.buttons.push({ component: item, path: at });
    else if (typeof type === 'string' && allowed.includes(type)) {
      const key = type as 'header' | 'body' | 'carousel';
      if (parts[key] !== undefined) throw problem(100, `Parameter '${at}.type' repeats ${type}.`);
      parts[key] = { component: item, path: at };
    } else {
      throw problem(
        100,
        `Parameter '${at}.type' must be ${allowed.join(', ')} or button (got ${JSON.stringify(item.type)}).`,
      );
    }
  });
  return parts;
}

export function parametersOf(part: Located | undefined): Json[] {
  if (!part || part.component.parameters === undefined) return [];
  const { component, path } = part;
  if (!Array.isArray(component.parameters))
    throw problem(100, `Parameter '${path}.parameters' must be an array.`);
  return component.parameters.map((p, i) => {
    if (!isObject(p)) throw problem(100, `Parameter '${path}.parameters[${i}]' must be an object.`);
    return p;
  });
}

/** A text-like parameter's value: text as is, currency and date_time by their fallback value. */
export function textValue(parameter: Json, path: string): string {
  const kind = parameter.type;
  if (kind !== 'text' && kind !== 'currency' && kind !== 'date_time') {
    throw problem(
      132012,
      `Parameter '${path}.type' must be text, currency or date_time (got ${JSON.stringify(kind)}).`,
    );
  }
  const value =
    kind === 'text' ? parameter.text : (isObject(parameter[kind]) ? parameter[kind] : {}).fallback_value;
  if (typeof value !== 'string' || value.trim() === '') {
    throw problem(
      132008,
      `Parameter '${path}' must have a non-empty ${kind === 'text' ? 'text' : `${kind}.fallback_value`}.`,
    );
  }
  // Meta refuses these in a parameter (132018 from v23.0; code 100 before, docs/cloud-api.md §5).
  if (/[\r\n\t]| {5,}/.test(value)) {
    throw problem(
      132018,
      `Param text cannot have new-line/tab characters or more than 4 consecutive spaces (${path}).`,
    );
  }
  if (charCount(value) > TEXT_PARAMETER_MAX) {
    throw problem(
      132008,
      `Parameter '${path}' must be at most ${TEXT_PARAMETER_MAX} characters (got ${charCount(value)}).`,
    );
  }
  return value;
}

/** A position given as a number or a string of digits (`index`, `card_index`); NaN for anything else. */
export function positionOf(raw: unknown): number {
  if (typeof raw === 'number') return Number.isInteger(raw) && raw >= 0 ? raw : Number.NaN;
  return typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
}

/** A media or location header parameter of `kind` (`image`, `video`, `document`, `location`). */
export function mediaHeader(
  kind: string,
  parameter: Json | undefined,
  at: string,
  what: string,
): FilledHeader {
  if (!parameter || parameter.type !== kind) {
    throw problem(132012, `Parameter '${at}.type' must be ${kind}: ${what}.`);
  }
  const value = parameter[kind];
  if (!isObject(value)) throw problem(131008, `Parameter '${at}.${kind}' is required.`);
  if (kind === 'location') {
    const { latitude, longitude, name, address } = value;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') {
      throw problem(131008, `Parameter '${at}.location' needs numeric latitude and longitude.`);
    }
    return {
      type: 'location',
      latitude,
      longitude,
      ...(typeof name === 'string' && name ? { name } : {}),
      ...(typeof address === 'string' && address ? { address } : {}),
    };
  }
  checkMediaSource(value, `${at}.${kind}`);
  return {
    type: kind as 'image' | 'video' | 'document',
    ...(typeof value.link === 'string' ? { link: value.link } : {}),
    ...(typeof value.id === 'string' ? { id: value.id } : {}),
    ...(kind === 'document' && typeof value.filename === 'string' ? { filename: value.filename } : {}),
  };
}

/** The body's values, checked against its variables and the length of the filled-in text. */
export function bodyValues(
  body: TemplateContent['body'],
  part: Located | undefined,
  component = 'body',
): string[] {
  const path = part?.path ?? `template.components[${component}]`;
  const parameters = parametersOf(part);
  if (parameters.length !== body.variables) {
    throw countMismatch(component, body.variables, parameters.length);
  }
  const values = parameters.map((p, i) => textValue(p, `${path}.parameters[${i}]`));
  const filled = fillVariables(body.text, values);
  if (charCount(filled) > HYDRATED_LIMITS.body) {
    throw problem(
      132005,
      `The filled-in ${component} is ${charCount(filled)} characters; at most ${HYDRATED_LIMITS.body}.`,
    );
  }
  return values;
}
