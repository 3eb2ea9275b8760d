// Dispatches every component to its family's spec and applies the rules common to all components.

import type { ComponentContext, FlowContext, Nesting } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import { atLeast, COMPONENT_SINCE, FORM_OPTIONAL_SINCE } from '../version.ts';
import { CONTAINER_COMPONENTS } from './containers.ts';
import { DATE_COMPONENTS } from './dates.ts';
import { FOOTER_AND_LINK_COMPONENTS } from './footer-and-links.ts';
import { INPUT_COMPONENT_TYPES } from './kinds.ts';
import { MEDIA_COMPONENTS } from './media.ts';
import { NAVIGATION_LIST_COMPONENTS } from './navigation-list.ts';
import { checkProperty } from './properties.ts';
import { SELECTION_COMPONENTS } from './selection.ts';
import type { ComponentSpec } from './spec.ts';
import { TEXT_COMPONENTS } from './text.ts';
import { TEXT_ENTRY_COMPONENTS } from './text-entry.ts';

/** Every component type of docs/cloud-api.md §6.4 (plus Form from §6.3); anything else is refused. */
const SPECS: Record<string, ComponentSpec> = {
  ...TEXT_COMPONENTS,
  ...TEXT_ENTRY_COMPONENTS,
  ...SELECTION_COMPONENTS,
  ...DATE_COMPONENTS,
  ...FOOTER_AND_LINK_COMPONENTS,
  ...MEDIA_COMPONENTS,
  ...NAVIGATION_LIST_COMPONENTS,
  ...CONTAINER_COMPONENTS,
};

export const COMPONENT_TYPES: readonly string[] = Object.keys(SPECS);

/** Validates a screen's `layout.children` and, through the containers, everything nested in them. */
export function validateLayoutChildren(flow: FlowContext, children: unknown[], path: string): void {
  validateList(flow, children, path, { insideForm: false, ifDepth: 0 });
}

function validateList(flow: FlowContext, children: unknown, path: string, nesting: Nesting): void {
  if (!Array.isArray(children)) return;
  const ctx: ComponentContext = {
    ...flow,
    ...nesting,
    validateChildren: (inner, innerPath, innerNesting) => validateList(flow, inner, innerPath, innerNesting),
  };
  children.forEach((child, i) => {
    validateComponent(ctx, child, at(path, i));
  });
}

function validateComponent(ctx: ComponentContext, component: unknown, path: string): void {
  if (!isObject(component)) {
    ctx.report(path, `A component must be an object with a "type", not ${kindOf(component)}.`);
    return;
  }
  const type = component['type'];
  if (typeof type !== 'string') {
    ctx.report(at(path, 'type'), 'Every component needs a "type" string naming the component.');
    return;
  }
  const spec = SPECS[type];
  if (!spec) {
    ctx.report(
      at(path, 'type'),
      `Unknown component type "${type}"; Flow JSON components are ${COMPONENT_TYPES.join(', ')}.`,
    );
    return;
  }
  const since = COMPONENT_SINCE[type];
  if (since && !atLeast(ctx.version, since)) {
    ctx.report(
      at(path, 'type'),
      `${type} needs Flow JSON ${since} or later; this file is ${versionText(ctx.version)}.`,
    );
    return;
  }
  // docs/cloud-api.md §6.5 (1): Meta refuses properties a component does not define (JSON_SCHEMA_ERROR).
  for (const key of Object.keys(component)) {
    if (key !== 'type' && !(key in spec.props)) {
      ctx.report(
        at(path, key),
        `${type} does not accept the property "${key}"; allowed: ${Object.keys(spec.props).join(', ')}.`,
      );
    }
  }
  for (const [key, prop] of Object.entries(spec.props)) {
    const value = component[key];
    if (value === undefined) {
      if (prop.required) ctx.report(at(path, key), `${type} requires "${key}".`);
      continue;
    }
    checkProperty(ctx, type, key, prop, value, at(path, key));
  }
  spec.crossChecks?.(ctx, component, path);
  // docs/cloud-api.md §6.3: before v4.0 inputs only exist inside a Form, which is what collects their values.
  if (INPUT_COMPONENT_TYPES.has(type) && !ctx.insideForm && !atLeast(ctx.version, FORM_OPTIONAL_SINCE)) {
    ctx.report(path, `Before Flow JSON ${FORM_OPTIONAL_SINCE}, a ${type} must sit inside a Form component.`);
  }
}

const versionText = (v: { major: number; minor: number }) => `${v.major}.${v.minor}`;
