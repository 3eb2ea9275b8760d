// Turns the uploaded file's text into a JSON value, or into one problem that says where the syntax breaks.

import { locateSyntaxError } from './syntax-location.ts';
import type { FlowProblem } from './types.ts';

export type ParseOutcome = { ok: true; value: unknown } | { ok: false; problem: FlowProblem };

export function parseFlowText(text: string): ParseOutcome {
  // Editors on Windows often save UTF-8 with a byte-order mark; Meta accepts such files, JSON.parse does not.
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (source.trim() === '') {
    return { ok: false, problem: { path: '', rule: 'The file is empty; it must contain one JSON object.' } };
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: { path: '', rule: describeSyntaxError(source, message) } };
  }
  if (deeperThan(value, MAX_DEPTH)) {
    const rule = `The file nests arrays and objects more than ${MAX_DEPTH} levels deep; a Flow JSON needs far fewer.`;
    return { ok: false, problem: { path: '', rule } };
  }
  return { ok: true, value };
}

/**
 * The deepest nesting a Flow JSON may have. A real one nests a few levels per screen (layout, components,
 * an If inside an If, their actions): a few dozen at most. The checks that follow walk the document by
 * recursion, which a file nested thousands deep would overflow.
 */
export const MAX_DEPTH = 100;

/** Whether `value` nests arrays and objects more than `max` levels deep, found without recursion. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

function describeSyntaxError(source: string, message: string): string {
  const location = locateSyntaxError(source);
  if (location === null) {
    // Only reachable if JSON.parse and the scanner disagree; V8's own words are the best left to offer.
    return `The file is not valid JSON (${message}); fix the syntax and upload it again.`;
  }
  const { line, column } = lineAndColumn(source, location.offset);
  return `The file is not valid JSON: at line ${line}, column ${column} found ${location.found} where ${location.expected} was expected.`;
}

function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
