// Actions attached to components (`on-click-action`, `on-select-action`, …) and their payload rules.

import type { FlowContext } from './context.ts';
import { at, isObject, kindOf } from './paths.ts';

/** Action names from docs/cloud-api.md §6.3 ("Actions (`name`)"). */
export const ACTION_NAMES = ['navigate', 'complete', 'data_exchange', 'update_data', 'open_url'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

/** Keys each action may carry besides `name` (docs/cloud-api.md §6.3; `url` is open_url's target). */
const ACTION_KEYS: Record<ActionName, readonly string[]> = {
  navigate: ['next', 'payload'],
  complete: ['payload'],
  data_exchange: ['payload'],
  update_data: ['payload'],
  open_url: ['url'],
};

/** `navigate.next.type` has a single value in docs/cloud-api.md §6.3. */
export const NAVIGATE_NEXT_TYPE = 'screen';

function isActionName(value: unknown): value is ActionName {
  return typeof value === 'string' && (ACTION_NAMES as readonly string[]).includes(value);
}

export function validateAction(
  ctx: FlowContext,
  value: unknown,
  path: string,
  allowed: readonly ActionName[],
  owner: string,
): void {
  if (!isObject(value)) {
    ctx.report(path, `${owner} action must be an object with a "name", not ${kindOf(value)}.`);
    return;
  }
  const name = value['name'];
  if (name === undefined) {
    ctx.report(at(path, 'name'), `${owner} action needs a "name"; allowed here: ${allowed.join(', ')}.`);
    return;
  }
  if (!isActionName(name)) {
    ctx.report(
      at(path, 'name'),
      `Action name ${JSON.stringify(name)} is unknown; Flow JSON actions are ${ACTION_NAMES.join(', ')}.`,
    );
    return;
  }
  if (!allowed.includes(name)) {
    ctx.report(
      at(path, 'name'),
      `${owner} cannot use the ${name} action; allowed here: ${allowed.join(', ')}.`,
    );
  }
  for (const key of Object.keys(value)) {
    if (key !== 'name' && !ACTION_KEYS[name].includes(key)) {
      ctx.report(
        at(path, key),
        `The ${name} action does not take "${key}"; it accepts only ${['name', ...ACTION_KEYS[name]].join(', ')}.`,
      );
    }
  }
  const payload = value['payload'];
  if (payload !== undefined && !isObject(payload)) {
    ctx.report(
      at(path, 'payload'),
      `The ${name} action's "payload" must be an object, not ${kindOf(payload)}.`,
    );
  }
  checkActionOwnRules(ctx, name, value, path);
}

/** The rules of one action beyond its keys: its target, its endpoint, its payload. */
function checkActionOwnRules(
  ctx: FlowContext,
  name: ActionName,
  value: Record<string, unknown>,
  path: string,
): void {
  switch (name) {
    case 'navigate':
      checkNavigate(ctx, value['next'], at(path, 'next'));
      break;
    case 'data_exchange':
      // The payload is posted to the flow's endpoint; without data_api_version there is no endpoint contract.
      if (!ctx.hasDataApi) {
        ctx.report(
          at(path, 'name'),
          'The data_exchange action needs a data endpoint; declare "data_api_version" (and a routing_model) at the top level, or use navigate/complete.',
        );
      }
      break;
    case 'update_data':
      if (value['payload'] === undefined) {
        ctx.report(
          at(path, 'payload'),
          'The update_data action needs a "payload" object naming the data to change.',
        );
      }
      break;
    case 'open_url':
      checkUrl(ctx, value['url'], at(path, 'url'));
      break;
    case 'complete':
      break;
  }
}

function checkNavigate(ctx: FlowContext, next: unknown, path: string): void {
  if (next === undefined) {
    ctx.report(path, 'The navigate action needs "next": { "type": "screen", "name": "<screen id>" }.');
    return;
  }
  if (!isObject(next)) {
    ctx.report(path, `The navigate action's "next" must be an object, not ${kindOf(next)}.`);
    return;
  }
  for (const key of Object.keys(next)) {
    if (key !== 'type' && key !== 'name') {
      ctx.report(at(path, key), `"next" accepts only "type" and "name", not "${key}".`);
    }
  }
  if (next['type'] !== NAVIGATE_NEXT_TYPE) {
    ctx.report(at(path, 'type'), `"next.type" must be "${NAVIGATE_NEXT_TYPE}".`);
  }
  const target = next['name'];
  if (typeof target !== 'string' || target === '') {
    ctx.report(at(path, 'name'), '"next.name" must be the id of the screen to open.');
    return;
  }
  if (!ctx.screenIds.has(target)) {
    ctx.report(
      at(path, 'name'),
      `The navigate target "${target}" is not a screen of this flow; use one of: ${[...ctx.screenIds].join(', ')}.`,
    );
    return;
  }
  ctx.onNavigate(target, at(path, 'name'));
}

function checkUrl(ctx: FlowContext, url: unknown, path: string): void {
  if (url === undefined) {
    ctx.report(path, 'The open_url action needs a "url".');
    return;
  }
  if (typeof url !== 'string') {
    ctx.report(path, `The open_url "url" must be a string, not ${kindOf(url)}.`);
    return;
  }
  // A `${data.x}` binding is resolved on the device, so only literal URLs can be checked here.
  if (!url.includes('${') && !/^https?:\/\/\S+$/i.test(url)) {
    ctx.report(path, 'The open_url "url" must be an absolute http:// or https:// address.');
  }
}
