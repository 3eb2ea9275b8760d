// Visits the components of a screen, including those nested in Form, If and Switch.

import { at, isObject } from './paths.ts';
import type { JsonObject } from './types.ts';

export interface ChildList {
  children: unknown[];
  path: string;
}

/** The component lists directly inside a container, each with its path. */
export function childListsOf(component: JsonObject, path: string): ChildList[] {
  const lists: ChildList[] = [];
  const add = (value: unknown, listPath: string) => {
    if (Array.isArray(value)) lists.push({ children: value, path: listPath });
  };
  switch (component['type']) {
    case 'Form':
      add(component['children'], at(path, 'children'));
      break;
    case 'If':
      add(component['then'], at(path, 'then'));
      add(component['else'], at(path, 'else'));
      break;
    case 'Switch': {
      const cases = component['cases'];
      if (isObject(cases)) {
        for (const [key, value] of Object.entries(cases)) add(value, at(at(path, 'cases'), key));
      }
      break;
    }
  }
  return lists;
}

/** Pre-order walk in document order; `visit` sees each component object once. */
export function forEachComponent(
  children: unknown[],
  path: string,
  visit: (component: JsonObject, path: string) => void,
): void {
  children.forEach((child, i) => {
    if (!isObject(child)) return;
    const childPath = at(path, i);
    visit(child, childPath);
    for (const list of childListsOf(child, childPath)) forEachComponent(list.children, list.path, visit);
  });
}
