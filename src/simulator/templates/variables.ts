/**
 * Positional template variables (`{{1}}`, `{{2}}`, ...; docs/cloud-api.md §4.2). Anything in double braces is
 * meant as a variable, so `{{name}}` or `{{ 1 }}` is a malformed one rather than plain text.
 */
import { invalidField, SUBCODE } from './errors.ts';

const VARIABLE = /\{\{([^{}]*)\}\}/g;

/** Variable numbers in order of appearance; throws on a malformed variable in `field`. */
export function variablesOf(
  text: string,
  field: string,
  subcode: number = SUBCODE.headerOrBodyFormat,
): number[] {
  const numbers: number[] = [];
  for (const match of text.matchAll(VARIABLE)) {
    const inner = match[1] ?? '';
    if (!/^[1-9]\d{0,2}$/.test(inner)) {
      throw invalidField(
        field,
        `has the malformed variable "{{${inner}}}"; variables are {{1}}, {{2}}, ...`,
        subcode,
      );
    }
    numbers.push(Number(inner));
  }
  return numbers;
}

/**
 * The number of distinct variables, after checking they are numbered 1..n in order of first appearance
 * (a variable may repeat). Meta refuses `{{2}}` before `{{1}}` and gaps such as `{{1}} {{3}}`.
 */
export function countOrderedVariables(text: string, field: string): number {
  let highest = 0;
  for (const n of variablesOf(text, field)) {
    if (n > highest + 1) {
      throw invalidField(
        field,
        `uses {{${n}}} before {{${highest + 1}}}; variables must be numbered in order from {{1}}`,
        SUBCODE.headerOrBodyFormat,
      );
    }
    highest = Math.max(highest, n);
  }
  return highest;
}

/** `text` with `{{n}}` replaced by `values[n - 1]`. */
export function fillVariables(text: string, values: readonly string[]): string {
  return text.replace(VARIABLE, (raw, inner: string) => values[Number(inner) - 1] ?? raw);
}

/** `text` with every variable removed: the fixed text the review weighs against the variables. */
export function fixedText(text: string): string {
  return text.replace(VARIABLE, ' ');
}

/**
 * A variable with nothing but white space before it, or after it. (Meta has been seen to refuse more, a
 * variable followed by a full stop among them, but not always: only what it always refuses is refused here.)
 */
export const VARIABLE_AT_START = /^\s*\{\{[^{}]*\}\}/;
export const VARIABLE_AT_END = /\{\{[^{}]*\}\}\s*$/;
/** Two variables with nothing but white space between them. */
export const ADJACENT_VARIABLES = /\{\{[^{}]*\}\}\s*\{\{[^{}]*\}\}/;
