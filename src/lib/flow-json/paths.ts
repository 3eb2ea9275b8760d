// Builds the problem paths in the same notation Meta uses in `validation_errors[].pointers[].path`
// (`screens[0].layout.children[0].type`), so a user can compare our report with Meta's.

import type { JsonObject } from './types.ts';

// Kebab-case property names (`on-click-action`) are the norm inside components, so a hyphen still counts as
// a plain segment; anything stranger is quoted so the path stays unambiguous.
const PLAIN_SEGMENT = /^[A-Za-z_$][\w$-]*$/;

export function at(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (!PLAIN_SEGMENT.test(key)) return `${base}[${JSON.stringify(key)}]`;
  return base === '' ? key : `${base}.${key}`;
}

/** The path one level up, or null for the root. */
export function parentPath(path: string): string | null {
  if (path === '') return null;
  const match = /(\.[^.[\]]+|\[[^\]]*\])$/.exec(path);
  if (!match) return '';
  return path.slice(0, path.length - match[0].length);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Describes a JSON value's kind for messages such as "must be a string, not a number". */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}
