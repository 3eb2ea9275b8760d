// Choice inputs: Dropdown, RadioButtonsGroup, CheckboxGroup, ChipsSelector (docs/cloud-api.md §6.4).

import type { ComponentContext } from '../context.ts';
import { at } from '../paths.ts';
import type { JsonObject } from '../types.ts';
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

const common = (labelMax: number, count: OptionCount): Record<string, PropSpec> => ({
  name: requiredStr(),
  label: requiredStr(labelMax),
  'data-source': optionsProp(count),
  required: bool,
  'init-value': { kind: 'any' },
  'error-message': str(),
  enabled: bool,
  visible: bool,
  ...selectActions,
});

const multiChoice = (labelMax: number): ComponentSpec => ({
  props: {
    ...common(labelMax, MULTI_CHOICE_OPTIONS),
    description: str(CHOICE_DESCRIPTION_MAX),
    'media-size': { kind: 'enum', values: MEDIA_SIZES },
    'min-selected-items': int(0, MAX_SELECTED_ITEMS),
    'max-selected-items': int(1, MAX_SELECTED_ITEMS),
  },
  crossChecks: (ctx, component, path) => {
    minNotAboveMax('min-selected-items', 'max-selected-items')(ctx, component, path);
    minSelectedWithinOptions(ctx, component, path);
  },
});

export const SELECTION_COMPONENTS: Record<string, ComponentSpec> = {
  Dropdown: { props: common(CHOICE_LABEL_MAX, DROPDOWN_OPTIONS) },
  RadioButtonsGroup: {
    props: {
      ...common(CHOICE_LABEL_MAX, RADIO_OPTIONS),
      description: str(CHOICE_DESCRIPTION_MAX),
      'media-size': { kind: 'enum', values: MEDIA_SIZES },
    },
  },
  CheckboxGroup: multiChoice(CHOICE_LABEL_MAX),
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
