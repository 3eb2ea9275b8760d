// Choice inputs: Dropdown, RadioButtonsGroup, CheckboxGroup, ChipsSelector (docs/cloud-api.md §6.4).

import type { ComponentContext } from '../context.ts';
import { at } from '../paths.ts';
import type { JsonObject } from '../types.ts';
import { atLeast } from '../version.ts';
import { type OptionCount, optionsProp } from './options.ts';
import { action, bool, type ComponentSpec, int, type PropSpec, requiredStr, str } from './spec.ts';
import { minNotAboveMax } from './text-entry.ts';

/** docs/cloud-api.md §6.4: Dropdown, RadioButtonsGroup and CheckboxGroup labels hold at most 30 characters. */
export const CHOICE_LABEL_MAX = 30;
/** docs/cloud-api.md §6.4: ChipsSelector label holds at most 80 characters. */
export const CHIPS_LABEL_MAX = 80;
/** docs/cloud-api.md §6.4: RadioButtonsGroup description holds at most 300 characters (applied to every choice input). */
export const CHOICE_DESCRIPTION_MAX = 300;
/** docs/cloud-api.md §6.4: Dropdown offers 1–200 options. */
export const DROPDOWN_OPTIONS: OptionCount = { min: 1, max: 200 };
/** docs/cloud-api.md §6.4: RadioButtonsGroup offers at most 20 options (marked unconfirmed there). */
export const RADIO_OPTIONS: OptionCount = { min: 1, max: 20 };
/** docs/cloud-api.md §6.4: CheckboxGroup and ChipsSelector allow at most 20 selected, so more options are pointless. */
export const MULTI_CHOICE_OPTIONS: OptionCount = { min: 1, max: 20 };
/** docs/cloud-api.md §6.4: `max-selected-items` is at most 20 (CheckboxGroup and ChipsSelector). */
export const MAX_SELECTED_ITEMS = 20;
/** `media-size` values from Meta's component reference (not listed in docs/cloud-api.md §6.4). */
export const MEDIA_SIZES = ['regular', 'large'] as const;

// Selecting an option may ask the endpoint for new data or change screen data locally.
const selectActions = {
  'on-select-action': action(['data_exchange', 'update_data']),
  'on-unselect-action': action(['update_data']),
};

const common = (labelMax: number, count: OptionCount, labelRequired = true): Record<string, PropSpec> => ({
  name: requiredStr(),
  label: labelRequired ? requiredStr(labelMax) : str(labelMax),
  'data-source': optionsProp(count),
  required: bool,
  'init-value': { kind: 'any' },
  'error-message': str(),
  enabled: bool,
  visible: bool,
  ...selectActions,
});

/**
 * A radio or checkbox group without a label is valid before Flow JSON 4.0, as in Meta's own published
 * examples (a 3.1 survey); from 4.0 on it needs one.
 */
const LABEL_REQUIRED_SINCE = '4.0';

function labelSince4(type: string) {
  return (ctx: ComponentContext, component: JsonObject, path: string) => {
    if (component.label === undefined && atLeast(ctx.version, LABEL_REQUIRED_SINCE))
      ctx.report(at(path, 'label'), `${type} requires "label" from Flow JSON ${LABEL_REQUIRED_SINCE} on.`);
  };
}

const multiChoice = (labelMax: number, labelRequired = true): ComponentSpec => ({
  props: {
    ...common(labelMax, MULTI_CHOICE_OPTIONS, labelRequired),
    description: str(CHOICE_DESCRIPTION_MAX),
    'media-size': { kind: 'enum', values: MEDIA_SIZES },
    'min-selected-items': int(0, MAX_SELECTED_ITEMS),
    'max-selected-items': int(1, MAX_SELECTED_ITEMS),
  },
  crossChecks: (ctx, component, path) => {
    minNotAboveMax('min-selected-items', 'max-selected-items')(ctx, component, path);
    minSelectedWithinOptions(ctx, component, path);
    if (!labelRequired) labelSince4('CheckboxGroup')(ctx, component, path);
  },
});

export const SELECTION_COMPONENTS: Record<string, ComponentSpec> = {
  Dropdown: { props: common(CHOICE_LABEL_MAX, DROPDOWN_OPTIONS) },
  RadioButtonsGroup: {
    props: {
      ...common(CHOICE_LABEL_MAX, RADIO_OPTIONS, false),
      description: str(CHOICE_DESCRIPTION_MAX),
      'media-size': { kind: 'enum', values: MEDIA_SIZES },
    },
    crossChecks: labelSince4('RadioButtonsGroup'),
  },
  CheckboxGroup: multiChoice(CHOICE_LABEL_MAX, false),
  ChipsSelector: multiChoice(CHIPS_LABEL_MAX),
};

/** Asking for more selections than there are options cannot be satisfied. */
function minSelectedWithinOptions(ctx: ComponentContext, component: JsonObject, path: string): void {
  const min = component['min-selected-items'];
  const options = component['data-source'];
  if (typeof min === 'number' && Array.isArray(options) && min > options.length) {
    ctx.report(
      at(path, 'min-selected-items'),
      `"min-selected-items" (${min}) is more than the ${options.length} options in "data-source".`,
    );
  }
}
