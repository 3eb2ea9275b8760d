// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flow JSON bindings are literal "${…}" text, not template slots.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPLETE_FOOTER, flow, problemsOf, terminalScreen } from './helpers.ts';

test('a file with three different problems reports all three, in document order', () => {
  const problems = problemsOf(
    flow(
      [
        terminalScreen('ONLY', [
          { type: 'TextHeading', text: 'H'.repeat(81) },
          { type: 'Slider', name: 'volume' },
          { type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'mail' },
          COMPLETE_FOOTER,
        ]),
      ],
      { version: '0.9' },
    ),
  );
  assert.deepEqual(
    problems.map((p) => p.path),
    [
      'version',
      'screens[0].layout.children[0].text',
      'screens[0].layout.children[1].type',
      'screens[0].layout.children[2].input-type',
    ],
  );
  assert.match(problems[0]?.rule ?? '', /Flow JSON version "0.9" is not accepted/);
  assert.match(problems[1]?.rule ?? '', /at most 80 are allowed/);
  assert.match(problems[2]?.rule ?? '', /Unknown component type "Slider"/);
  assert.match(problems[3]?.rule ?? '', /allowed values are text, number, email/);
});

test('problems found by later passes are still listed in document order', () => {
  const problems = problemsOf(
    flow([
      terminalScreen('A', [{ type: 'TextBody', text: '${data.missing}' }, COMPLETE_FOOTER]),
      terminalScreen('ORPHAN', [{ type: 'TextBody', text: 'x'.repeat(5000) }, COMPLETE_FOOTER]),
    ]),
  );
  assert.deepEqual(
    problems.map((p) => p.path),
    ['screens[0].layout.children[0].text', 'screens[1]', 'screens[1].layout.children[0].text'],
  );
  assert.match(problems[1]?.rule ?? '', /cannot be reached/);
});

test('every problem has a one-sentence rule', () => {
  const problems = problemsOf({ version: 7, screens: 'none', extra: true });
  assert.equal(problems.length, 3);
  for (const p of problems) assert.match(p.rule, /^[A-Z"].*\.$/);
});
