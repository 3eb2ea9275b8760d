// Enforces one `PropSpec` on one property value. Every check accepts a `${…}` binding in place of a literal,
// because Meta resolves bindings on the device and their static value is unknown here.

import { validateAction } from '../actions.ts';
import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import type { PropSpec } from './spec.ts';

export function checkProperty(
  ctx: ComponentContext,
  owner: string,
  key: string,
  spec: PropSpec,
  value: unknown,
  path: string,
): void {
  const subject = `${owner} "${key}"`;
  switch (spec.kind) {
    case 'action':
      validateAction(ctx, value, path, spec.actions, subject);
      break;
    case 'custom':
      spec.check(ctx, value, path);
      break;
    case 'enum-list':
    case 'string-list':
      checkList(ctx, subject, spec, value, path);
      break;
    default: {
      const rule = isDynamic(value) ? null : scalarProblem(subject, spec, value);
      if (rule) ctx.report(path, rule);
    }
  }
}

/** The problem with a single (non-list, non-action) value, or null when it is fine. */
function scalarProblem(subject: string, spec: PropSpec, value: unknown): string | null {
  switch (spec.kind) {
    case 'string':
      if (typeof value !== 'string') return `${subject} must be a string, not ${kindOf(value)}.`;
      if (spec.required && value.trim() === '') return `${subject} must not be empty.`;
      return lengthProblem(subject, value, spec.max);
    case 'text':
      if (typeof value === 'string') {
        if (spec.required && value.trim() === '') return `${subject} must not be empty.`;
        return lengthProblem(subject, value, spec.max);
      }
      if (Array.isArray(value) && value.every((line) => typeof line === 'string')) return null;
      return `${subject} must be a string or an array of strings, not ${kindOf(value)}.`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${subject} must be true or false, not ${kindOf(value)}.`;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return `${subject} must be an integer, not ${kindOf(value)}.`;
      }
      if (spec.min !== undefined && value < spec.min) {
        return `${subject} is ${value}; the smallest allowed value is ${spec.min}.`;
      }
      if (spec.max !== undefined && value > spec.max) {
        return `${subject} is ${value}; the largest allowed value is ${spec.max}.`;
      }
      return null;
    case 'number':
      if (typeof value !== 'number') return `${subject} must be a number, not ${kindOf(value)}.`;
      if (spec.exclusiveMin !== undefined && value <= spec.exclusiveMin) {
        return `${subject} must be greater than ${spec.exclusiveMin}.`;
      }
      return null;
    case 'enum':
      if (typeof value === 'string' && spec.values.includes(value)) return null;
      return `${subject} is ${JSON.stringify(value)}; allowed values are ${spec.values.join(', ')}.`;
    case 'object':
      return isObject(value) ? null : `${subject} must be an object, not ${kindOf(value)}.`;
    default:
      return null;
  }
}

function checkList(
  ctx: ComponentContext,
  subject: string,
  spec: PropSpec,
  value: unknown,
  path: string,
): void {
  if (isDynamic(value)) return;
  if (!Array.isArray(value)) {
    ctx.report(path, `${subject} must be an array of strings, not ${kindOf(value)}.`);
    return;
  }
  value.forEach((item, i) => {
    if (typeof item !== 'string') {
      ctx.report(at(path, i), `${subject} items must be strings, not ${kindOf(item)}.`);
    } else if (spec.kind === 'enum-list' && !spec.values.includes(item)) {
      ctx.report(
        at(path, i),
        `${subject} item ${JSON.stringify(item)} is not one of ${spec.values.join(', ')}.`,
      );
    }
  });
}

function lengthProblem(subject: string, value: string, max: number | undefined): string | null {
  // Meta counts characters as the user sees them, so count code points rather than UTF-16 units.
  const length = [...value].length;
  return max !== undefined && length > max
    ? `${subject} is ${length} characters long; at most ${max} are allowed.`
    : null;
}

/** Reports a literal string longer than `max` (bindings are skipped by the callers). */
export function checkLength(
  ctx: ComponentContext,
  subject: string,
  value: string,
  max: number | undefined,
  path: string,
): void {
  const rule = lengthProblem(subject, value, max);
  if (rule) ctx.report(path, rule);
}
