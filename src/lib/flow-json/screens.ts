// Per-screen structure: id, keys, `data` declarations and layout (docs/cloud-api.md §6.3, §6.5 items 2–3).

import { validateLayoutChildren } from './components/registry.ts';
import type { FlowContext } from './context.ts';
import { at, isObject, kindOf } from './paths.ts';
import type { Report } from './types.ts';
import { atLeast, SENSITIVE_FIELDS_SINCE } from './version.ts';

/** docs/cloud-api.md §6.3: keys a screen may carry. */
export const SCREEN_KEYS = [
  'id',
  'layout',
  'title',
  'terminal',
  'success',
  'data',
  'refresh_on_back',
  'sensitive',
];
/** docs/cloud-api.md §6.5 (2): `SUCCESS` is reserved. Meta refuses lower-case "success" as well. */
export const RESERVED_SCREEN_IDS = ['SUCCESS'];
/**
 * Screen ids are identifiers: letters, digits and underscores, not starting with a digit. Meta's examples use
 * UPPER_SNAKE, but docs/cloud-api.md §6.5 (2) says lower case is not confirmed as an error, so case is not enforced.
 */
export const SCREEN_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** docs/cloud-api.md §6.5 (3): the only layout. */
export const LAYOUT_TYPE = 'SingleColumnLayout';
/** JSON Schema types a screen `data` declaration may name (docs/cloud-api.md §6.3: `{key: {type, __example__}}`). */
export const DATA_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'] as const;

/** Checks every screen id and returns the set of valid, unique ones (needed before actions can be checked). */
export function collectScreenIds(screens: unknown[], report: Report): Set<string> {
  const ids = new Set<string>();
  screens.forEach((screen, i) => {
    if (!isObject(screen)) return;
    const id = screen['id'];
    const rule = screenIdProblem(id, ids);
    if (rule) report(at(at(at('', 'screens'), i), 'id'), rule);
    else ids.add(id as string);
  });
  return ids;
}

function screenIdProblem(id: unknown, earlier: ReadonlySet<string>): string | null {
  if (id === undefined) return 'Every screen needs an "id".';
  if (typeof id !== 'string') return `A screen "id" must be a string, not ${kindOf(id)}.`;
  if (!SCREEN_ID_PATTERN.test(id)) {
    return `Screen id "${id}" may contain only letters, digits and underscores and must not start with a digit.`;
  }
  if (RESERVED_SCREEN_IDS.includes(id.toUpperCase()))
    return `Screen id "${id}" is reserved by WhatsApp; choose another id.`;
  if (earlier.has(id)) return `Screen id "${id}" is used by an earlier screen; screen ids must be unique.`;
  return null;
}

export function checkScreen(ctx: FlowContext, screen: unknown, path: string): void {
  if (!isObject(screen)) {
    ctx.report(path, `A screen must be an object with "id" and "layout", not ${kindOf(screen)}.`);
    return;
  }
  for (const key of Object.keys(screen)) {
    if (!SCREEN_KEYS.includes(key)) {
      ctx.report(at(path, key), `Unknown screen key "${key}"; allowed keys are ${SCREEN_KEYS.join(', ')}.`);
    }
  }
  const title = screen['title'];
  if (title !== undefined && typeof title !== 'string') {
    ctx.report(at(path, 'title'), `A screen "title" must be a string, not ${kindOf(title)}.`);
  }
  for (const key of ['terminal', 'success', 'refresh_on_back']) {
    const v = screen[key];
    if (v !== undefined && typeof v !== 'boolean') {
      ctx.report(at(path, key), `Screen "${key}" must be true or false, not ${kindOf(v)}.`);
    }
  }
  if (screen['data'] !== undefined) checkDataDeclarations(ctx.report, screen['data'], at(path, 'data'));
  if (screen['sensitive'] !== undefined) checkSensitive(ctx, screen['sensitive'], at(path, 'sensitive'));
  checkLayout(ctx, screen['layout'], at(path, 'layout'));
}

function checkDataDeclarations(report: Report, data: unknown, path: string): void {
  if (!isObject(data)) {
    report(
      path,
      `Screen "data" must be an object of declarations like { "key": { "type", "__example__" } }.`,
    );
    return;
  }
  for (const [key, declaration] of Object.entries(data)) {
    const keyPath = at(path, key);
    if (!isObject(declaration)) {
      report(
        keyPath,
        `Data declaration "${key}" must be an object with "type" and "__example__", not ${kindOf(declaration)}.`,
      );
      continue;
    }
    const type = declaration['type'];
    if (typeof type !== 'string' || !(DATA_TYPES as readonly string[]).includes(type)) {
      report(at(keyPath, 'type'), `Data declaration "${key}" needs a "type" of ${DATA_TYPES.join(', ')}.`);
    }
    // Meta builds the preview and checks the endpoint's answers from the example value.
    if (!('__example__' in declaration)) {
      report(at(keyPath, '__example__'), `Data declaration "${key}" needs an "__example__" value.`);
    }
  }
}

function checkSensitive(ctx: FlowContext, value: unknown, path: string): void {
  if (!atLeast(ctx.version, SENSITIVE_FIELDS_SINCE)) {
    ctx.report(
      path,
      `Screen "sensitive" exists from Flow JSON ${SENSITIVE_FIELDS_SINCE} on; raise "version" or remove it.`,
    );
    return;
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    ctx.report(path, 'Screen "sensitive" must be an array of field names (strings).');
  }
}

function checkLayout(ctx: FlowContext, layout: unknown, path: string): void {
  if (layout === undefined) {
    ctx.report(path, `Every screen needs a "layout": { "type": "${LAYOUT_TYPE}", "children": [ … ] }.`);
    return;
  }
  if (!isObject(layout)) {
    ctx.report(path, `A screen "layout" must be an object, not ${kindOf(layout)}.`);
    return;
  }
  for (const key of Object.keys(layout)) {
    if (key !== 'type' && key !== 'children') {
      ctx.report(at(path, key), `"layout" accepts only "type" and "children", not "${key}".`);
    }
  }
  if (layout['type'] !== LAYOUT_TYPE) {
    ctx.report(
      at(path, 'type'),
      `"layout.type" is ${JSON.stringify(layout['type'])}; the only layout is "${LAYOUT_TYPE}".`,
    );
  }
  const children = layout['children'];
  if (!Array.isArray(children)) {
    ctx.report(
      at(path, 'children'),
      `"layout.children" must be an array of components, not ${kindOf(children)}.`,
    );
    return;
  }
  validateLayoutChildren(ctx, children, at(path, 'children'));
}
