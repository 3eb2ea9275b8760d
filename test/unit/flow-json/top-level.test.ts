import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
  flowWith,
  terminalScreen,
} from './helpers.ts';

const minimal = () => [terminalScreen('ONLY', [COMPLETE_FOOTER])];

test('every version Meta accepts validates', () => {
  for (const version of [
    '2.1',
    '3.0',
    '3.1',
    '4.0',
    '5.0',
    '5.1',
    '6.0',
    '6.1',
    '6.2',
    '6.3',
    '7.0',
    '7.1',
    '7.2',
    '7.3',
  ]) {
    assertValid({ version, screens: minimal() });
  }
});

test('missing version is refused', () => {
  assertOnlyProblem({ screens: minimal() }, 'version', '"version" is required');
});

test('an unknown or expired version is refused', () => {
  assertOnlyProblem(
    { version: '1.0', screens: minimal() },
    'version',
    'Flow JSON version "1.0" is not accepted',
  );
  assertOnlyProblem({ version: '8.0', screens: minimal() }, 'version', 'is not accepted; use one of');
});

test('version must be a string', () => {
  assertOnlyProblem({ version: 7.1, screens: minimal() }, 'version', '"version" must be a string');
});

test('missing screens is refused', () => {
  assertOnlyProblem({ version: '7.1' }, 'screens', '"screens" is required');
});

test('screens must be a non-empty array', () => {
  assertOnlyProblem({ version: '7.1', screens: [] }, 'screens', 'at least one screen');
  assertOnlyProblem({ version: '7.1', screens: {} }, 'screens', 'must be an array of screens');
});

test('unknown top-level keys are refused', () => {
  assertOnlyProblem(
    flow(minimal(), { routingModel: {} }),
    'routingModel',
    'Unknown top-level key "routingModel"',
  );
});

test('data_api_version accepts only known values', () => {
  assertProblem(
    flowWith(COMPLETE_FOOTER, { data_api_version: '2.0', routing_model: { ONLY: [] } }),
    'data_api_version',
    'allowed values are 3.0, 4.0',
  );
  assertValid(flowWith(COMPLETE_FOOTER, { data_api_version: '3.0', routing_model: { ONLY: [] } }));
});

test('data_channel_uri is legacy and refused from 3.0 on', () => {
  assertOnlyProblem(
    flow(minimal(), { data_channel_uri: 'https://example.com/flow' }),
    'data_channel_uri',
    'only valid below Flow JSON 3.0',
  );
  assertValid({ version: '2.1', screens: minimal(), data_channel_uri: 'https://example.com/flow' });
});
