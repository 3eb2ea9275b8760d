// Every `${form.x}` / `${data.x}` (and `${screen.ID.form.x}` / `${screen.ID.data.x}`) must name something that
// exists (docs/cloud-api.md §6.3 "Bindings", §6.5 item 6).

import { referencesIn } from './bindings.ts';
import { inputNames } from './names.ts';
import { at, isObject } from './paths.ts';
import type { JsonObject, Report } from './types.ts';

export interface ScreenFacts {
  inputs: ReadonlySet<string>;
  dataKeys: ReadonlySet<string>;
}

export function screenFacts(screen: JsonObject, path: string): ScreenFacts {
  const layout = screen['layout'];
  const children = isObject(layout) && Array.isArray(layout['children']) ? layout['children'] : [];
  const data = screen['data'];
  return {
    inputs: inputNames(children, at(at(path, 'layout'), 'children')),
    dataKeys: new Set(isObject(data) ? Object.keys(data) : []),
  };
}

export function checkReferences(
  report: Report,
  screen: JsonObject,
  path: string,
  own: ScreenFacts,
  byId: ReadonlyMap<string, ScreenFacts>,
): void {
  // `data` holds declarations whose `__example__` values are sample content, not bindings; `id` is a name.
  for (const [key, value] of Object.entries(screen)) {
    if (key === 'data' || key === 'id') continue;
    visitStrings(value, at(path, key), (text, textPath) => {
      for (const ref of referencesIn(text)) {
        const rule = unresolved(ref, own, byId);
        if (rule) report(textPath, rule);
      }
    });
  }
}

function unresolved(
  ref: ReturnType<typeof referencesIn>[number],
  own: ScreenFacts,
  byId: ReadonlyMap<string, ScreenFacts>,
): string | null {
  let facts = own;
  let where = 'this screen';
  if ('screen' in ref) {
    const other = byId.get(ref.screen);
    if (!other) return `\${${ref.text}} names screen "${ref.screen}", which is not a screen of this flow.`;
    facts = other;
    where = `screen ${ref.screen}`;
  }
  if (ref.scope === 'form' && !facts.inputs.has(ref.key)) {
    return `\${${ref.text}} refers to an input named "${ref.key}", but ${where} has no input with that name.`;
  }
  if (ref.scope === 'data' && !facts.dataKeys.has(ref.key)) {
    return `\${${ref.text}} refers to "${ref.key}", but it is not declared in the "data" of ${where}.`;
  }
  return null;
}

function visitStrings(value: unknown, path: string, visit: (text: string, path: string) => void): void {
  if (typeof value === 'string') {
    visit(value, path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      visitStrings(item, at(path, i), visit);
    });
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) visitStrings(item, at(path, key), visit);
  }
}
