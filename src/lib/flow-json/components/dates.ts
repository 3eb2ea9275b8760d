// Date inputs: DatePicker and CalendarPicker (docs/cloud-api.md §6.4).

import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import type { JsonObject } from '../types.ts';
import { atLeast } from '../version.ts';
import { checkLength } from './properties.ts';
import { action, bool, type ComponentSpec, int, type PropSpec, requiredStr, str } from './spec.ts';
import { HELPER_TEXT_MAX } from './text-entry.ts';

/** docs/cloud-api.md §6.4: DatePicker and CalendarPicker labels hold at most 40 characters. */
export const DATE_LABEL_MAX = 40;
/** docs/cloud-api.md §6.4: CalendarPicker `mode` values. */
export const CALENDAR_MODES = ['single', 'range'] as const;
/** `include-days` values from Meta's CalendarPicker reference (docs/cloud-api.md §6.4 only says "dates"). */
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
/** Dates are written as `YYYY-MM-DD` from this Flow JSON version on; older flows used timestamp strings. */
export const ISO_DATES_SINCE = '5.0';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const dateBounds: Record<string, PropSpec> = {
  'min-date': str(),
  'max-date': str(),
  'unavailable-dates': { kind: 'string-list' },
};

export const DATE_COMPONENTS: Record<string, ComponentSpec> = {
  DatePicker: {
    props: {
      name: requiredStr(),
      label: requiredStr(DATE_LABEL_MAX),
      ...dateBounds,
      'helper-text': str(HELPER_TEXT_MAX),
      required: bool,
      'init-value': str(),
      'error-message': str(),
      enabled: bool,
      visible: bool,
      'on-select-action': action(['data_exchange', 'update_data']),
    },
    crossChecks: datesInOrder,
  },
  CalendarPicker: {
    props: {
      name: requiredStr(),
      // In range mode the label may name both ends: { "start-date": "Check-in", "end-date": "Check-out" }.
      label: { kind: 'custom', required: true, check: rangeOrText('label', DATE_LABEL_MAX) },
      title: str(),
      description: str(),
      'helper-text': { kind: 'custom', check: rangeOrText('helper-text', HELPER_TEXT_MAX) },
      mode: { kind: 'enum', values: CALENDAR_MODES },
      ...dateBounds,
      'include-days': { kind: 'enum-list', values: WEEKDAYS },
      'min-days': int(1),
      'max-days': int(1),
      required: { kind: 'custom', check: rangeOrBoolean },
      'init-value': { kind: 'any' },
      'error-message': { kind: 'any' },
      enabled: bool,
      visible: bool,
      'on-select-action': action(['data_exchange', 'update_data']),
    },
    crossChecks: (ctx, component, path) => {
      datesInOrder(ctx, component, path);
      // min-days/max-days only make sense when a range is picked.
      if (component['mode'] !== 'range') {
        for (const key of ['min-days', 'max-days']) {
          if (component[key] !== undefined) {
            ctx.report(at(path, key), `CalendarPicker "${key}" is only allowed with "mode": "range".`);
          }
        }
      }
    },
  },
};

function datesInOrder(ctx: ComponentContext, component: JsonObject, path: string): void {
  if (!atLeast(ctx.version, ISO_DATES_SINCE)) return;
  for (const key of ['min-date', 'max-date']) {
    const v = component[key];
    if (typeof v === 'string' && !isDynamic(v) && !ISO_DATE.test(v)) {
      ctx.report(at(path, key), `"${key}" must be a date written as YYYY-MM-DD, not ${JSON.stringify(v)}.`);
    }
  }
  const min = component['min-date'];
  const max = component['max-date'];
  // ISO dates compare correctly as strings.
  if (
    typeof min === 'string' &&
    typeof max === 'string' &&
    ISO_DATE.test(min) &&
    ISO_DATE.test(max) &&
    min > max
  ) {
    ctx.report(at(path, 'min-date'), `"min-date" (${min}) must not be after "max-date" (${max}).`);
  }
}

function rangeOrText(key: string, max: number) {
  return (ctx: ComponentContext, value: unknown, path: string): void => {
    if (isDynamic(value)) return;
    if (typeof value === 'string') {
      checkLength(ctx, `CalendarPicker "${key}"`, value, max, path);
      return;
    }
    if (isObject(value)) {
      for (const [end, v] of Object.entries(value)) {
        if (end !== 'start-date' && end !== 'end-date') {
          ctx.report(
            at(path, end),
            `CalendarPicker "${key}" as an object accepts only "start-date" and "end-date".`,
          );
        } else if (typeof v !== 'string') {
          ctx.report(at(path, end), `CalendarPicker "${key}.${end}" must be a string, not ${kindOf(v)}.`);
        } else {
          checkLength(ctx, `CalendarPicker "${key}.${end}"`, v, max, at(path, end));
        }
      }
      return;
    }
    ctx.report(
      path,
      `CalendarPicker "${key}" must be a string or a { "start-date", "end-date" } object, not ${kindOf(value)}.`,
    );
  };
}

function rangeOrBoolean(ctx: ComponentContext, value: unknown, path: string): void {
  if (typeof value === 'boolean' || isDynamic(value)) return;
  if (isObject(value) && Object.values(value).every((v) => typeof v === 'boolean')) return;
  ctx.report(
    path,
    `CalendarPicker "required" must be true/false or a { "start-date", "end-date" } object of booleans.`,
  );
}
