// Component names: unique per screen (docs/cloud-api.md §6.5 item 6) and the keys `${form.<name>}` can use.

import { INPUT_COMPONENT_TYPES, NAMED_COMPONENT_TYPES } from './components/kinds.ts';
import { at, isObject } from './paths.ts';
import type { Report } from './types.ts';
import { childListsOf, forEachComponent } from './walk.ts';

/**
 * Reports a name used twice on one screen. The branches of one If/Switch are never shown together, so the
 * same input may appear in each branch; anything shown at the same time must be unique.
 */
export function checkUniqueNames(report: Report, children: unknown[], path: string): void {
  namesIn(report, children, path);
}

function namesIn(report: Report, children: unknown[], path: string): Map<string, string> {
  const seen = new Map<string, string>();
  children.forEach((child, i) => {
    if (!isObject(child)) return;
    const childPath = at(path, i);
    for (const [name, namePath] of namesOf(report, child, childPath)) {
      const first = seen.get(name);
      if (first !== undefined) {
        report(
          namePath,
          `The name "${name}" is already used at ${first}; component names must be unique on a screen.`,
        );
      } else {
        seen.set(name, namePath);
      }
    }
  });
  return seen;
}

function namesOf(report: Report, component: Record<string, unknown>, path: string): Map<string, string> {
  const type = component['type'];
  const name = component['name'];
  if (typeof type === 'string' && NAMED_COMPONENT_TYPES.has(type) && typeof name === 'string') {
    return new Map([[name, at(path, 'name')]]);
  }
  const lists = childListsOf(component, path);
  if (type === 'Form') {
    // A Form's children sit side by side, so they share one namespace.
    const merged = new Map<string, string>();
    for (const list of lists)
      for (const [n, p] of namesIn(report, list.children, list.path)) merged.set(n, p);
    return merged;
  }
  const union = new Map<string, string>();
  for (const list of lists) {
    for (const [n, p] of namesIn(report, list.children, list.path)) if (!union.has(n)) union.set(n, p);
  }
  return union;
}

/** Names of the inputs on a screen, i.e. the keys `${form.<name>}` may use. */
export function inputNames(children: unknown[], path: string): Set<string> {
  const names = new Set<string>();
  forEachComponent(children, path, (component) => {
    const type = component['type'];
    const name = component['name'];
    if (typeof type === 'string' && INPUT_COMPONENT_TYPES.has(type) && typeof name === 'string')
      names.add(name);
  });
  return names;
}
