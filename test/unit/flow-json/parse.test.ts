import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
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
