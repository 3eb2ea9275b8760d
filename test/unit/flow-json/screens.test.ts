import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
  navigateFooter,
  screen,
  terminalScreen,
} from './helpers.ts';

test('duplicate screen ids are refused at the second one', () => {
  assertProblem(
    flow([screen('A', [navigateFooter('A')]), terminalScreen('A', [COMPLETE_FOOTER])]),
    'screens[1].id',
    'Screen id "A" is used by an earlier screen',
  );
});

test('SUCCESS is a reserved screen id', () => {
  assertOnlyProblem(flow([terminalScreen('SUCCESS', [COMPLETE_FOOTER])]), 'screens[0].id', 'is reserved');
});

test('screen ids must be identifiers', () => {
  assertOnlyProblem(
    flow([terminalScreen('MY-SCREEN', [COMPLETE_FOOTER])]),
    'screens[0].id',
    'only letters, digits and underscores',
  );
  assertOnlyProblem(
    flow([terminalScreen('1ST', [COMPLETE_FOOTER])]),
    'screens[0].id',
    'must not start with a digit',
  );
  assertValid(flow([terminalScreen('STEP_1', [COMPLETE_FOOTER])]));
});

test('a screen needs an id', () => {
  assertProblem(
    flow([{ terminal: true, layout: { type: 'SingleColumnLayout', children: [COMPLETE_FOOTER] } }]),
    'screens[0].id',
    'Every screen needs an "id"',
  );
});

test('layout.type must be SingleColumnLayout', () => {
  const document = flow([terminalScreen('ONLY', [COMPLETE_FOOTER])]);
  (
    (document['screens'] as Record<string, Record<string, unknown>>[])[0]?.['layout'] as Record<
      string,
      unknown
    >
  )['type'] = 'TwoColumnLayout';
  assertOnlyProblem(document, 'screens[0].layout.type', 'the only layout is "SingleColumnLayout"');
});

test('a screen needs a layout', () => {
  assertProblem(flow([{ id: 'ONLY', terminal: true }]), 'screens[0].layout', 'Every screen needs a "layout"');
});

test('unknown screen keys are refused', () => {
  assertOnlyProblem(
    flow([terminalScreen('ONLY', [COMPLETE_FOOTER], { subtitle: 'x' })]),
    'screens[0].subtitle',
    'Unknown screen key "subtitle"',
  );
});

test('terminal, success and refresh_on_back must be booleans', () => {
  assertProblem(
    flow([terminalScreen('ONLY', [COMPLETE_FOOTER], { success: 'yes' })]),
    'screens[0].success',
    'must be true or false',
  );
});

test('data declarations need a type and an __example__', () => {
  assertOnlyProblem(
    flow([terminalScreen('ONLY', [COMPLETE_FOOTER], { data: { name: { type: 'text', __example__: 'x' } } })]),
    'screens[0].data.name.type',
    'needs a "type" of string, number',
  );
  assertOnlyProblem(
    flow([terminalScreen('ONLY', [COMPLETE_FOOTER], { data: { name: { type: 'string' } } })]),
    'screens[0].data.name.__example__',
    'needs an "__example__"',
  );
});

test('sensitive exists from 5.1 on and lists field names', () => {
  const withSensitive = (version: string, sensitive: unknown) => ({
    version,
    screens: [terminalScreen('ONLY', [COMPLETE_FOOTER], { sensitive })],
  });
  assertValid(withSensitive('5.1', ['password']));
  assertOnlyProblem(
    withSensitive('5.0', ['password']),
    'screens[0].sensitive',
    'exists from Flow JSON 5.1 on',
  );
  assertOnlyProblem(withSensitive('7.1', 'password'), 'screens[0].sensitive', 'array of field names');
});
