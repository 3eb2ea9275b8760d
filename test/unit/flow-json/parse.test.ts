import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
  flowWith,
  problemsOf,
  terminalScreen,
} from './helpers.ts';

test('invalid JSON syntax is one problem at the root naming line and column', () => {
  const problems = problemsOf('{\n  "version": "7.1",\n  "screens": [}\n}');
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.path, '');
  assert.match(problems[0]?.rule ?? '', /not valid JSON: at line 3, column 15 found "}"/);
});

test('a trailing comma is located', () => {
  assertOnlyProblem('{"version": "7.1",}', '', 'line 1, column 19 found "}" where a property name');
});

test('a truncated file is reported at its end', () => {
  assertOnlyProblem('{"version": "7.1", "screens": [', '', 'found the end of the file');
});

test('an empty file is refused', () => {
  assertOnlyProblem('  \n', '', 'The file is empty');
});

test('the root must be an object', () => {
  assertOnlyProblem('[1, 2]', '', 'must hold one JSON object');
});

test('a UTF-8 byte-order mark is tolerated', () => {
  const text = `\uFEFF${JSON.stringify(flow([terminalScreen('ONLY', [COMPLETE_FOOTER])]))}`;
  assertValid(text);
});

test('a file nested deeper than any Flow JSON is one problem, however deep (no stack overflow)', () => {
  for (const depth of [101, 3_000, 50_000]) {
    const text = `{"version":"7.0","screens":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    assertOnlyProblem(text, '', 'nests arrays and objects more than 100 levels deep');
  }
  // At the limit it is read, and judged as any other file.
  const atLimit = `{"version":"7.0","screens":${'['.repeat(99)}${']'.repeat(99)}}`;
  assert.doesNotMatch(problemsOf(atLimit)[0]?.rule ?? '', /levels deep/);
});

test('a component newer than the file version is refused, naming the version it needs', () => {
  const chips = {
    type: 'ChipsSelector',
    name: 'topics',
    label: 'Topics',
    'data-source': [{ id: 'a', title: 'A' }],
  };
  assertOnlyProblem(
    flowWith(chips, { version: '6.2' }),
    'screens[0].layout.children[0].type',
    'ChipsSelector needs Flow JSON 6.3 or later; this file is 6.2.',
  );
  assertValid(flowWith(chips, { version: '6.3' }));
  const rich = { type: 'RichText', text: 'Terms' };
  assertProblem(
    flowWith(rich, { version: '5.0' }),
    'screens[0].layout.children[0].type',
    'needs Flow JSON 5.1',
  );
});

test('a radio group without a label is valid before 4.0, as in Meta own examples, and refused from 4.0 on', () => {
  const radio = { type: 'RadioButtonsGroup', name: 'pick', 'data-source': [{ id: 'a', title: 'A' }] };
  const inForm = { type: 'Form', name: 'form', children: [radio] };
  assertValid(flowWith(inForm, { version: '3.1' }));
  assertOnlyProblem(
    flowWith(radio, { version: '4.0' }),
    'screens[0].layout.children[0].label',
    'RadioButtonsGroup requires "label" from Flow JSON 4.0 on.',
  );
});
