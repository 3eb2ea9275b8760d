// The `data-source` option list shared by Dropdown, RadioButtonsGroup, CheckboxGroup and ChipsSelector.

import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import { checkProperty } from './properties.ts';
import { action, bool, type PropSpec, requiredStr, str } from './spec.ts';

/** docs/cloud-api.md §6.4 ("`data-source` item"): title 30, description 300, metadata 20 characters. */
export const OPTION_TITLE_MAX = 30;
export const OPTION_DESCRIPTION_MAX = 300;
export const OPTION_METADATA_MAX = 20;

const OPTION_PROPS: Record<string, PropSpec> = {
  id: requiredStr(),
  title: requiredStr(OPTION_TITLE_MAX),
  description: str(OPTION_DESCRIPTION_MAX),
  metadata: str(OPTION_METADATA_MAX),
  enabled: bool,
  // `image` is a base64 picture shown next to the option; `alt-text` describes it for screen readers.
  image: str(),
  'alt-text': str(),
  color: str(),
  'on-select-action': action(['update_data']),
  'on-unselect-action': action(['update_data']),
};

export interface OptionCount {
  min: number;
  max: number;
}

/** A `data-source` property: an option array within `count`, or a `${data.x}` binding filled at runtime. */
export function optionsProp(count: OptionCount): PropSpec {
  return {
    kind: 'custom',
    required: true,
    check: (ctx, value, path) => checkOptions(ctx, value, path, count),
  };
}

function checkOptions(ctx: ComponentContext, value: unknown, path: string, count: OptionCount): void {
  if (isDynamic(value)) return;
  if (!Array.isArray(value)) {
    ctx.report(
      path,
      `"data-source" must be an array of options or a \${data.…} binding, not ${kindOf(value)}.`,
    );
    return;
  }
  if (value.length < count.min || value.length > count.max) {
    ctx.report(
      path,
      `"data-source" has ${value.length} options; between ${count.min} and ${count.max} are allowed.`,
    );
  }
  const seen = new Set<string>();
  value.forEach((option, i) => {
    const optionPath = at(path, i);
    if (!isObject(option)) {
      ctx.report(
        optionPath,
        `Each "data-source" option must be an object with "id" and "title", not ${kindOf(option)}.`,
      );
      return;
    }
    for (const key of Object.keys(option)) {
      if (!(key in OPTION_PROPS)) {
        ctx.report(
          at(optionPath, key),
          `A "data-source" option does not accept "${key}"; allowed: ${Object.keys(OPTION_PROPS).join(', ')}.`,
        );
      }
    }
    for (const [key, spec] of Object.entries(OPTION_PROPS)) {
      const v = option[key];
      if (v === undefined) {
        if (spec.required) ctx.report(at(optionPath, key), `Each "data-source" option needs "${key}".`);
        continue;
      }
      checkProperty(ctx, 'Option', key, spec, v, at(optionPath, key));
    }
    // The selected option's id is what the form value carries, so two options with one id would be ambiguous.
    const id = option['id'];
    if (typeof id === 'string') {
      if (seen.has(id))
        ctx.report(at(optionPath, 'id'), `Option id "${id}" is used twice; option ids must be unique.`);
      seen.add(id);
    }
  });
}
