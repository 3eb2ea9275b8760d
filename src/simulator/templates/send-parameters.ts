/**
 * The parameters of a template send (docs/cloud-api.md §1.3 template) checked against the approved template:
 * each component must carry exactly the parameters the template has variables for, else 132000 naming the
 * component and the expected count; a parameter of the wrong kind is 132012; a text parameter longer than
 * 1024 characters is 132008; a filled-in header or body longer than its limit is 132005.
 */
import { GraphProblem, graphError } from '../graph-errors.ts';
import { charCount, checkMediaSource, isObject, type Json } from '../validate-fields.ts';
import type { TemplateButton, TemplateContent } from './model.ts';
import type { FilledParameters } from './render.ts';
import { fillVariables } from './variables.ts';

const TEXT_PARAMETER_MAX = 1024;
const HYDRATED_LIMITS = { header: 60, body: 1024 } as const;
const SUB_TYPES: Record<string, TemplateButton['type']> = {
  url: 'URL',
  quick_reply: 'QUICK_REPLY',
  copy_code: 'COPY_CODE',
};

const problem = (code: number, details: string) => new GraphProblem(graphError(code, details));

function countMismatch(component: string, expected: number, given: number): GraphProblem {
  return problem(
    132000,
    `The ${component} component of the template expects ${expected} parameter${expected === 1 ? '' : 's'}, ${given} given.`,
  );
}

/** A text-like parameter's value: text as is, currency and date_time by their fallback value. */
function textValue(parameter: Json, path: string): string {
  const kind = parameter.type;
  const value =
    kind === 'text'
      ? parameter.text
      : kind === 'currency' || kind === 'date_time'
        ? (isObject(parameter[kind]) ? parameter[kind] : {}).fallback_value
        : undefined;
  if (kind !== 'text' && kind !== 'currency' && kind !== 'date_time') {
    throw problem(
      132012,
      `Parameter '${path}.type' must be text, currency or date_time (got ${JSON.stringify(kind)}).`,
    );
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw problem(
      132008,
      `Parameter '${path}' must have a non-empty ${kind === 'text' ? 'text' : `${kind}.fallback_value`}.`,
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

function parametersOf(component: Json | undefined, path: string): Json[] {
  if (!component || component.parameters === undefined) return [];
  if (!Array.isArray(component.parameters))
    throw problem(100, `Parameter '${path}.parameters' must be an array.`);
  return component.parameters.map((p, i) => {
    if (!isObject(p)) throw problem(100, `Parameter '${path}.parameters[${i}]' must be an object.`);
    return p;
  });
}

function headerLine(content: TemplateContent, component: Json | undefined, path: string): string | undefined {
  const header = content.header;
  const parameters = parametersOf(component, path);
  const expected = header && (header.format !== 'TEXT' || header.variables > 0) ? 1 : 0;
  if (parameters.length !== expected) throw countMismatch('header', expected, parameters.length);
  if (!header) return undefined;
  const parameter = parameters[0];
  const at = `${path}.parameters[0]`;
  if (header.format === 'TEXT') {
    const text = parameter
      ? fillVariables(header.text ?? '', [textValue(parameter, at)])
      : (header.text ?? '');
    if (charCount(text) > HYDRATED_LIMITS.header) {
      throw problem(
        132005,
        `The filled-in header is ${charCount(text)} characters; at most ${HYDRATED_LIMITS.header}.`,
      );
    }
    return `*${text}*`;
  }
  const kind = header.format.toLowerCase();
  if (!parameter || parameter.type !== kind) {
    throw problem(
      132012,
      `Parameter '${at}.type' must be ${kind}: the template has a ${header.format} header.`,
    );
  }
  const value = parameter[kind];
  if (!isObject(value)) throw problem(131008, `Parameter '${at}.${kind}' is required.`);
  if (kind === 'location') {
    const { latitude, longitude } = value;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') {
      throw problem(131008, `Parameter '${at}.location' needs numeric latitude and longitude.`);
    }
    const place = [value.name, value.address].filter((s) => typeof s === 'string' && s).join(', ');
    return `📍 ${place ? `${place} ` : ''}(${latitude}, ${longitude})`;
  }
  checkMediaSource(value, `${at}.${kind}`);
  const label =
    kind === 'document' && typeof value.filename === 'string' ? value.filename : (value.link ?? value.id);
  return `[${kind}: ${label}]`;
}

/**
 * The value a send gives one button (a coupon code, a URL suffix), checked against the button; none for
 * a quick reply or a fixed URL.
 */
function buttonValue(
  button: TemplateContent['buttons'][number],
  index: number,
  component: Json,
  path: string,
): string | undefined {
  const parameters = parametersOf(component, path);
  const label = `button ${index} (${button.type})`;
  if (button.type === 'QUICK_REPLY') {
    if (parameters.length > 1) throw countMismatch(label, 1, parameters.length);
    if (parameters[0] && (parameters[0].type !== 'payload' || typeof parameters[0].payload !== 'string')) {
      throw problem(132012, `Parameter '${path}.parameters[0]' must be a payload parameter.`);
    }
    return undefined;
  }
  const expected = button.type === 'COPY_CODE' || button.urlHasVariable ? 1 : 0;
  if (parameters.length !== expected) throw countMismatch(label, expected, parameters.length);
  if (expected === 0) return undefined;
  const parameter = parameters[0] as Json;
  if (button.type === 'COPY_CODE') {
    const code = parameter.coupon_code;
    if (parameter.type !== 'coupon_code' || typeof code !== 'string' || code === '' || charCount(code) > 15) {
      throw problem(132012, `Parameter '${path}.parameters[0]' must be a coupon_code of 1 to 15 characters.`);
    }
    return code;
  } else {
    if (parameter.type !== 'text')
      throw problem(132012, `Parameter '${path}.parameters[0].type' must be text.`);
    return textValue(parameter, `${path}.parameters[0]`);
  }
}

function buttonValues(
  content: TemplateContent,
  components: { component: Json; path: string }[],
): Map<number, string> {
  const values = new Map<number, string>();
  for (const { component, path } of components) {
    const rawIndex = component.index;
    const index =
      typeof rawIndex === 'number'
        ? rawIndex
        : /^\d+$/.test(String(rawIndex))
          ? Number(rawIndex)
          : Number.NaN;
    const button = content.buttons[index];
    if (!button) {
      throw problem(
        132000,
        `Parameter '${path}.index' ${JSON.stringify(rawIndex)} names no button: the template has ${content.buttons.length}.`,
      );
    }
    if (values.has(index)) throw problem(100, `Parameter '${path}.index' repeats button ${index}.`);
    const subType = typeof component.sub_type === 'string' ? SUB_TYPES[component.sub_type] : undefined;
    if (subType !== button.type) {
      throw problem(
        132012,
        `Parameter '${path}.sub_type' must match button ${index}, a ${button.type} button.`,
      );
    }
    const value = buttonValue(button, index, component, path);
    if (value !== undefined) values.set(index, value);
  }
  content.buttons.forEach((button, index) => {
    const needsValue = button.type === 'COPY_CODE' || button.urlHasVariable;
    if (needsValue && !values.has(index)) throw countMismatch(`button ${index} (${button.type})`, 1, 0);
  });
  return values;
}

/** Reads `template.components` of a send against the template; throws a GraphProblem on a mismatch. */
export function fillParameters(content: TemplateContent, raw: unknown): FilledParameters {
  if (raw !== undefined && !Array.isArray(raw))
    throw problem(100, "Parameter 'template.components' must be an array.");
  let header: { component: Json; path: string } | undefined;
  let body: { component: Json; path: string } | undefined;
  const buttons: { component: Json; path: string }[] = [];
  (raw ?? []).forEach((item: unknown, i: number) => {
    const path = `template.components[${i}]`;
    if (!isObject(item)) throw problem(100, `Parameter '${path}' must be an object.`);
    const type = typeof item.type === 'string' ? item.type.toLowerCase() : item.type;
    if (type === 'button') buttons.push({ component: item, path });
    else if (type === 'header' || type === 'body') {
      if ((type === 'header' ? header : body) !== undefined)
        throw problem(100, `Parameter '${path}.type' repeats ${type}.`);
      if (type === 'header') header = { component: item, path };
      else body = { component: item, path };
    } else {
      throw problem(
        100,
        `Parameter '${path}.type' must be header, body or button (got ${JSON.stringify(item.type)}).`,
      );
    }
  });
  const headerText = headerLine(content, header?.component, header?.path ?? 'template.components[header]');
  const bodyPath = body?.path ?? 'template.components[body]';
  const bodyParameters = parametersOf(body?.component, bodyPath);
  if (bodyParameters.length !== content.body.variables) {
    throw countMismatch('body', content.body.variables, bodyParameters.length);
  }
  const values = bodyParameters.map((p, i) => textValue(p, `${bodyPath}.parameters[${i}]`));
  const filledBody = fillVariables(content.body.text, values);
  if (charCount(filledBody) > HYDRATED_LIMITS.body) {
    throw problem(
      132005,
      `The filled-in body is ${charCount(filledBody)} characters; at most ${HYDRATED_LIMITS.body}.`,
    );
  }
  return {
    ...(headerText !== undefined ? { header: headerText } : {}),
    body: values,
    buttons: buttonValues(content, buttons),
  };
}
