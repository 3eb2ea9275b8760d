import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertProblem,
  assertValid,
  C0,
  COMPLETE_FOOTER,
  flow,
  flowWith,
  type Json,
  navigateFooter,
  screen,
  terminalScreen,
} from './helpers.ts';

const footer = (action: unknown): Json => ({ type: 'Footer', label: 'Go', 'on-click-action': action });
const ACTION = `${C0}.on-click-action`;

test('navigate to an existing screen is accepted', () => {
  assertValid(flow([screen('A', [navigateFooter('B')]), terminalScreen('B', [COMPLETE_FOOTER])]));
});

test('navigate to a screen that does not exist is refused', () => {
  assertProblem(
    flow([screen('A', [navigateFooter('NOWHERE')]), terminalScreen('B', [COMPLETE_FOOTER])]),
    `${ACTION}.next.name`,
    'The navigate target "NOWHERE" is not a screen of this flow',
  );
});

test('navigate needs next with type "screen"', () => {
  assertOnlyProblem(flowWith(footer({ name: 'navigate' })), `${ACTION}.next`, 'needs "next"');
  assertProblem(
    flowWith(footer({ name: 'navigate', next: { type: 'flow', name: 'ONLY' } })),
    `${ACTION}.next.type`,
    '"next.type" must be "screen"',
  );
});

test('complete with a payload is accepted and does not take next', () => {
  assertValid(flowWith(footer({ name: 'complete', payload: { a: 1 } })));
  assertOnlyProblem(
    flowWith(footer({ name: 'complete', next: { type: 'screen', name: 'ONLY' } })),
    `${ACTION}.next`,
    'The complete action does not take "next"',
  );
});

test('a payload must be an object', () => {
  assertOnlyProblem(
    flowWith(footer({ name: 'complete', payload: 'x' })),
    `${ACTION}.payload`,
    '"payload" must be an object',
  );
});

test('unknown action names are refused', () => {
  assertOnlyProblem(
    flowWith(footer({ name: 'submit' })),
    `${ACTION}.name`,
    'Action name "submit" is unknown',
  );
});

test('data_exchange needs data_api_version', () => {
  assertOnlyProblem(
    flowWith(footer({ name: 'data_exchange', payload: {} })),
    `${ACTION}.name`,
    'data_exchange action needs a data endpoint',
  );
  assertValid(
    flowWith(footer({ name: 'data_exchange', payload: {} }), {
      data_api_version: '3.0',
      routing_model: { ONLY: [] },
    }),
  );
});

test('update_data needs a payload', () => {
  const dropdown = (action: Json): Json => ({
    type: 'Dropdown',
    name: 'd',
    label: 'Pick',
    'data-source': [{ id: 'a', title: 'A' }],
    'on-select-action': action,
  });
  assertValid(flowWith(dropdown({ name: 'update_data', payload: { picked: true } })));
  assertOnlyProblem(
    flowWith(dropdown({ name: 'update_data' })),
    `${C0}.on-select-action.payload`,
    'update_data action needs a "payload"',
  );
});

test('open_url needs an absolute http(s) url', () => {
  const link = (action: Json): Json => ({ type: 'EmbeddedLink', text: 'Terms', 'on-click-action': action });
  assertValid(flowWith(link({ name: 'open_url', url: 'https://example.com/terms' })));
  assertOnlyProblem(flowWith(link({ name: 'open_url' })), `${ACTION}.url`, 'needs a "url"');
  assertOnlyProblem(
    flowWith(link({ name: 'open_url', url: 'example.com' })),
    `${ACTION}.url`,
    'absolute http:// or https://',
  );
});

test('an action must be an object with a name', () => {
  assertOnlyProblem(flowWith(footer('complete')), ACTION, 'must be an object with a "name"');
  assertOnlyProblem(flowWith(footer({ payload: {} })), `${ACTION}.name`, 'needs a "name"');
});
