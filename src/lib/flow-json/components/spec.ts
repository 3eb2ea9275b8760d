// The declarative description each component family gives of its properties; `properties.ts` enforces it.

import type { ActionName } from '../actions.ts';
import type { ComponentContext } from '../context.ts';
import type { JsonObject } from '../types.ts';

interface Base {
  required?: boolean;
}

export type PropSpec = Base &
  (
    | { kind: 'string'; max?: number }
    /** A string or an array of strings (RichText's markdown lines). */
    | { kind: 'text'; max?: number }
    | { kind: 'boolean' }
    | { kind: 'integer'; min?: number; max?: number }
    | { kind: 'number'; exclusiveMin?: number }
    | { kind: 'enum'; values: readonly string[] }
    | { kind: 'enum-list'; values: readonly string[] }
    | { kind: 'string-list' }
    | { kind: 'object' }
    /** Any JSON value: the shape depends on other properties (e.g. `init-value` of a range picker). */
    | { kind: 'any' }
    | { kind: 'action'; actions: readonly ActionName[] }
    | { kind: 'custom'; check: (ctx: ComponentContext, value: unknown, path: string) => void }
  );

export interface ComponentSpec {
  props: Record<string, PropSpec>;
  /** Rules that tie several properties or the component's position together; run after the single checks. */
  crossChecks?: (ctx: ComponentContext, component: JsonObject, path: string) => void;
}

// Shorthands keep the per-component tables readable.
export const str = (max?: number, required = false): PropSpec => ({ kind: 'string', max, required });
export const requiredStr = (max?: number): PropSpec => ({ kind: 'string', max, required: true });
export const bool: PropSpec = { kind: 'boolean' };
export const int = (min?: number, max?: number): PropSpec => ({ kind: 'integer', min, max });
export const oneOf = (values: readonly string[]): PropSpec => ({ kind: 'enum', values });
export const action = (actions: readonly ActionName[], required = false): PropSpec => ({
  kind: 'action',
  actions,
  required,
});
