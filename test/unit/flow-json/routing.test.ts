import assert from 'node:assert/strict';
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

const endpoint = { data_api_version: '3.0' };

test('a screen unreachable from the first screen is refused', () => {
  assertOnlyProblem(
    flow([terminalScreen('A', [COMPLETE_FOOTER]), terminalScreen('ORPHAN', [COMPLETE_FOOTER])]),
    'screens[1]',
    'Screen ORPHAN cannot be reached from the first screen (A)',
  );
});

test('a navigate target that does not exist is refused and its intended screen is unreachable', () => {
  const document = flow([
    screen('A', [navigateFooter('DETAIL')]),
    terminalScreen('DETAILS', [COMPLETE_FOOTER]),
  ]);
  const problems = assertProblem(
    document,
    'screens[0].layout.children[0].on-click-action.next.name',
    'The navigate target "DETAIL" is not a screen of this flow',
  );
  assertProblem(document, 'screens[1]', 'Screen DETAILS cannot be reached');
  assert.equal(problems.length, 2);
});

test('a flow needs a terminal screen', () => {
  assertProblem(
    flow([screen('A', [navigateFooter('B')]), screen('B', [navigateFooter('A')])]),
    'screens',
    'At least one screen must be terminal',
  );
});

test('routing_model routes count as reachable', () => {
  assertValid(
    flow(
      [
        screen('A', [
          { type: 'Footer', label: 'Go', 'on-click-action': { name: 'data_exchange', payload: {} } },
        ]),
        terminalScreen('B', [COMPLETE_FOOTER]),
      ],
      { ...endpoint, routing_model: { A: ['B'], B: [] } },
    ),
  );
});

test('routing_model must name existing screens', () => {
  const document = flow([terminalScreen('A', [COMPLETE_FOOTER])], {
    routing_model: { A: ['GHOST'], PHANTOM: [] },
  });
  assertProblem(document, 'routing_model.A[0]', 'routes A to "GHOST", which is not a screen');
  assertProblem(document, 'routing_model.PHANTOM', 'names "PHANTOM", which is not a screen');
});

test('routing_model must not route a screen to itself', () => {
  assertOnlyProblem(
    flow([terminalScreen('A', [COMPLETE_FOOTER])], { routing_model: { A: ['A'] } }),
    'routing_model.A[0]',
    'must not route to itself',
  );
});

test('a navigate action must agree with routing_model', () => {
  assertOnlyProblem(
    flow([screen('A', [navigateFooter('B')]), terminalScreen('B', [COMPLETE_FOOTER])], {
      routing_model: { A: [], B: [] },
    }),
    'screens[0].layout.children[0].on-click-action.next.name',
    'routing_model does not list B under A',
  );
  assertValid(
    flow([screen('A', [navigateFooter('B')]), terminalScreen('B', [COMPLETE_FOOTER])], {
      routing_model: { A: ['B'] },
    }),
  );
});

test('a flow with data_api_version needs a routing_model', () => {
  assertOnlyProblem(
    flow([terminalScreen('A', [COMPLETE_FOOTER])], endpoint),
    'routing_model',
    'needs a "routing_model"',
  );
});

test('routing_model must be an object of arrays', () => {
  assertOnlyProblem(
    flow([terminalScreen('A', [COMPLETE_FOOTER])], { routing_model: ['A'] }),
    'routing_model',
    'must map screen ids',
  );
  assertOnlyProblem(
    flow([terminalScreen('A', [COMPLETE_FOOTER])], { routing_model: { A: 'B' } }),
    'routing_model.A',
    'must be an array of screen ids',
  );
});
