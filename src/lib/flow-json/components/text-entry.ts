// Free-text inputs: TextInput and TextArea (docs/cloud-api.md §6.4).

import type { ComponentContext } from '../context.ts';
import { at } from '../paths.ts';
import type { JsonObject } from '../types.ts';
import { bool, type ComponentSpec, int, oneOf, requiredStr, str } from './spec.ts';

/** docs/cloud-api.md §6.4: `input-type` values of TextInput. */
export const INPUT_TYPES = ['text', 'number', 'email', 'password', 'passcode', 'phone'] as const;
/** docs/cloud-api.md §6.4: TextInput and TextArea labels hold at most 20 characters. */
export const TEXT_ENTRY_LABEL_MAX = 20;
/** docs/cloud-api.md §6.4: `helper-text` holds at most 80 characters. */
export const HELPER_TEXT_MAX = 80;
/** `label-variant` values from Meta's component reference (v7.0); docs/cloud-api.md §6.4 does not list the property. */
export const LABEL_VARIANTS = ['large'] as const;

export const TEXT_ENTRY_COMPONENTS: Record<string, ComponentSpec> = {
  TextInput: {
    props: {
      name: requiredStr(),
      label: requiredStr(TEXT_ENTRY_LABEL_MAX),
      'label-variant': oneOf(LABEL_VARIANTS),
      'input-type': oneOf(INPUT_TYPES),
      pattern: str(),
      required: bool,
      'min-chars': int(0),
      'max-chars': int(1),
      'helper-text': str(HELPER_TEXT_MAX),
      'init-value': str(),
      'error-message': str(),
      enabled: bool,
      visible: bool,
    },
    crossChecks: minNotAboveMax('min-chars', 'max-chars'),
  },
  TextArea: {
    props: {
      name: requiredStr(),
      label: requiredStr(TEXT_ENTRY_LABEL_MAX),
      'label-variant': oneOf(LABEL_VARIANTS),
      required: bool,
      'max-length': int(1),
      'helper-text': str(HELPER_TEXT_MAX),
      'init-value': str(),
      'error-message': str(),
      enabled: bool,
      visible: bool,
    },
  },
};

/** A lower bound above its upper bound would make the component impossible to satisfy. */
export function minNotAboveMax(minKey: string, maxKey: string) {
  return (ctx: ComponentContext, component: JsonObject, path: string): void => {
    const min = component[minKey];
    const max = component[maxKey];
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      ctx.report(at(path, minKey), `"${minKey}" (${min}) must not be greater than "${maxKey}" (${max}).`);
    }
  };
}
