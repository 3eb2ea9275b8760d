// Components that hold other components: Form, If, Switch (docs/cloud-api.md §6.3–§6.4).

import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import type { ComponentSpec } from './spec.ts';

/** Deepest allowed nesting of If inside If, from Meta's If reference (docs/cloud-api.md §6.4 does not state it). */
export const MAX_IF_NESTING = 3;

export const CONTAINER_COMPONENTS: Record<string, ComponentSpec> = {
  Form: {
    props: {
      name: { kind: 'string', required: true },
      children: {
        kind: 'custom',
        required: true,
        check: (ctx, value, path) => nested(ctx, value, path, 'Form "children"', { insideForm: true }),
      },
      'init-values': { kind: 'object' },
      'error-messages': { kind: 'object' },
    },
    crossChecks: (ctx, _component, path) => {
      // A form's values are collected in one place; a form inside a form would have two owners.
      if (ctx.insideForm) ctx.report(path, 'A Form cannot be placed inside another Form.');
    },
  },
  If: {
    props: {
      // The condition is an expression over `${form.x}` / `${data.x}`; the reference pass checks the names.
      condition: { kind: 'string', required: true },
      // biome-ignore lint/suspicious/noThenProperty: "then" is the If component's property name in Flow JSON.
      then: {
        kind: 'custom',
        required: true,
        check: (ctx, value, path) =>
          nested(ctx, value, path, 'If "then"', { ifDepth: ctx.ifDepth + 1 }, true),
      },
      else: {
        kind: 'custom',
        check: (ctx, value, path) => nested(ctx, value, path, 'If "else"', { ifDepth: ctx.ifDepth + 1 }),
      },
    },
    crossChecks: (ctx, _component, path) => {
      if (ctx.ifDepth >= MAX_IF_NESTING) {
        ctx.report(path, `If components can be nested at most ${MAX_IF_NESTING} levels deep.`);
      }
    },
  },
  Switch: {
    props: {
      value: { kind: 'string', required: true },
      cases: { kind: 'custom', required: true, check: checkCases },
    },
  },
};

function nested(
  ctx: ComponentContext,
  value: unknown,
  path: string,
  subject: string,
  change: { insideForm?: boolean; ifDepth?: number },
  nonEmpty = false,
): void {
  if (!Array.isArray(value)) {
    ctx.report(path, `${subject} must be an array of components, not ${kindOf(value)}.`);
    return;
  }
  if (nonEmpty && value.length === 0) {
    ctx.report(path, `${subject} must hold at least one component.`);
    return;
  }
  ctx.validateChildren(value, path, {
    insideForm: change.insideForm ?? ctx.insideForm,
    ifDepth: change.ifDepth ?? ctx.ifDepth,
  });
}

function checkCases(ctx: ComponentContext, value: unknown, path: string): void {
  if (isDynamic(value) || !isObject(value)) {
    ctx.report(
      path,
      `Switch "cases" must be an object mapping each value to an array of components, not ${kindOf(value)}.`,
    );
    return;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) {
    ctx.report(path, 'Switch "cases" must name at least one case.');
    return;
  }
  for (const [caseValue, children] of entries) {
    nested(ctx, children, at(path, caseValue), `Switch case "${caseValue}"`, {});
  }
}
