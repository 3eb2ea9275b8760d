// NavigationList: a list of tappable rows, each leading somewhere (docs/cloud-api.md §6.4).

import { isDynamic } from '../bindings.ts';
import type { ComponentContext } from '../context.ts';
import { at, isObject, kindOf } from '../paths.ts';
import { checkProperty } from './properties.ts';
import { action, bool, type ComponentSpec, type PropSpec, requiredStr, str } from './spec.ts';

/** docs/cloud-api.md §6.4: a NavigationList has 1–20 items. */
export const NAVIGATION_ITEMS = { min: 1, max: 20 } as const;
const ROW_ACTIONS = ['navigate', 'data_exchange'] as const;

const objectProp: PropSpec = { kind: 'object' };
const ITEM_PROPS: Record<string, PropSpec> = {
  id: requiredStr(),
  // `main-content` is the row's body; `start` holds a leading image and `end` trailing texts.
  'main-content': { kind: 'custom', required: true, check: checkMainContent },
  start: objectProp,
  end: objectProp,
  badge: str(),
  tags: { kind: 'string-list' },
  'on-click-action': action(ROW_ACTIONS),
};

export const NAVIGATION_LIST_COMPONENTS: Record<string, ComponentSpec> = {
  NavigationList: {
    props: {
      name: requiredStr(),
      label: str(),
      description: str(),
      'media-size': { kind: 'enum', values: ['regular', 'large'] },
      'list-items': { kind: 'custom', required: true, check: checkItems },
      'on-click-action': action(ROW_ACTIONS),
      visible: bool,
    },
  },
};

function checkItems(ctx: ComponentContext, value: unknown, path: string): void {
  if (isDynamic(value)) return;
  if (!Array.isArray(value)) {
    ctx.report(path, `NavigationList "list-items" must be an array, not ${kindOf(value)}.`);
    return;
  }
  if (value.length < NAVIGATION_ITEMS.min || value.length > NAVIGATION_ITEMS.max) {
    ctx.report(
      path,
      `NavigationList has ${value.length} items; between ${NAVIGATION_ITEMS.min} and ${NAVIGATION_ITEMS.max} are allowed.`,
    );
  }
  const ids = new Set<string>();
  value.forEach((item, i) => {
    const itemPath = at(path, i);
    if (!isObject(item)) {
      ctx.report(itemPath, `Each NavigationList item must be an object, not ${kindOf(item)}.`);
      return;
    }
    for (const key of Object.keys(item)) {
      if (!(key in ITEM_PROPS)) {
        ctx.report(
          at(itemPath, key),
          `A NavigationList item does not accept "${key}"; allowed: ${Object.keys(ITEM_PROPS).join(', ')}.`,
        );
      }
    }
    for (const [key, spec] of Object.entries(ITEM_PROPS)) {
      const v = item[key];
      if (v === undefined) {
        if (spec.required) ctx.report(at(itemPath, key), `Each NavigationList item needs "${key}".`);
      } else {
        checkProperty(ctx, 'NavigationList item', key, spec, v, at(itemPath, key));
      }
    }
    const id = item['id'];
    if (typeof id === 'string') {
      if (ids.has(id))
        ctx.report(at(itemPath, 'id'), `NavigationList item id "${id}" is used twice; ids must be unique.`);
      ids.add(id);
    }
  });
}

function checkMainContent(ctx: ComponentContext, value: unknown, path: string): void {
  if (!isObject(value)) {
    ctx.report(path, `"main-content" must be an object with a "title", not ${kindOf(value)}.`);
    return;
  }
  if (typeof value['title'] !== 'string' || value['title'] === '') {
    ctx.report(at(path, 'title'), '"main-content" needs a non-empty "title" string.');
  }
  for (const key of ['description', 'metadata']) {
    const v = value[key];
    if (v !== undefined && typeof v !== 'string') {
      ctx.report(at(path, key), `"main-content.${key}" must be a string, not ${kindOf(v)}.`);
    }
  }
}
