// biome-ignore-all lint/suspicious/noThenProperty: "then" is the If component's property name in Flow JSON.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flow JSON bindings are literal "${…}" text, not template slots.
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
  terminalScreen,
} from './helpers.ts';

const body: Json = { type: 'TextBody', text: 'Hello' };
const input = (name: string): Json => ({ type: 'TextInput', name, label: 'Name' });

test('Form: a valid one is accepted', () => {
  assertValid(flowWith({ type: 'Form', name: 'form', children: [input('first'), input('last')] }));
});

test('Form: refused without children', () => {
  assertOnlyProblem(flowWith({ type: 'Form', name: 'form' }), `${C0}.children`, 'Form requires "children"');
});

test('Form: a Form inside a Form is refused', () => {
  assertOnlyProblem(
    flowWith({ type: 'Form', name: 'outer', children: [{ type: 'Form', name: 'inner', children: [] }] }),
    `${C0}.children[0]`,
    'cannot be placed inside another Form',
  );
});

test('before 4.0 inputs must sit inside a Form', () => {
  assertOnlyProblem(flowWith(input('first'), { version: '3.1' }), C0, 'must sit inside a Form component');
  assertValid(flowWith({ type: 'Form', name: 'form', children: [input('first')] }, { version: '3.1' }));
  assertValid(flowWith(input('first'), { version: '4.0' }));
});

test('If: a valid one is accepted', () => {
  assertValid(
    flow([
      terminalScreen('ONLY', [
        { type: 'OptIn', name: 'news', label: 'Newsletter' },
        {
          type: 'If',
          condition: '${form.news}',
          then: [body],
          else: [{ type: 'TextCaption', text: 'No news' }],
        },
        COMPLETE_FOOTER,
      ]),
    ]),
  );
});

test('If: refused without a condition or with an empty then', () => {
  assertOnlyProblem(flowWith({ type: 'If', then: [body] }), `${C0}.condition`, 'If requires "condition"');
  assertOnlyProblem(
    flowWith({ type: 'If', condition: 'true', then: [] }),
    `${C0}.then`,
    'If "then" must hold at least one component',
  );
});

test('If: at most three levels deep', () => {
  const nest = (depth: number): Json =>
    depth === 0 ? body : { type: 'If', condition: 'true', then: [nest(depth - 1)] };
  assertValid(flowWith(nest(3)));
  assertOnlyProblem(flowWith(nest(4)), `${C0}.then[0].then[0].then[0]`, 'nested at most 3 levels deep');
});

test('Switch: a valid one is accepted', () => {
  assertValid(
    flow([
      terminalScreen(
        'ONLY',
        [{ type: 'Switch', value: '${data.kind}', cases: { a: [body], b: [] } }, COMPLETE_FOOTER],
        {
          data: { kind: { type: 'string', __example__: 'a' } },
        },
      ),
    ]),
  );
});

test('Switch: refused without cases or with a case that is not a list', () => {
  assertOnlyProblem(flowWith({ type: 'Switch', value: 'a', cases: {} }), `${C0}.cases`, 'at least one case');
  assertOnlyProblem(
    flowWith({ type: 'Switch', value: 'a', cases: { a: body } }),
    `${C0}.cases.a`,
    'Switch case "a" must be an array of components',
  );
});

test('unknown component types are refused', () => {
  assertOnlyProblem(flowWith({ type: 'Carousel' }), `${C0}.type`, 'Unknown component type "Carousel"');
});

test('a component needs a type and must be an object', () => {
  assertOnlyProblem(flowWith({ text: 'x' }), `${C0}.type`, 'needs a "type"');
  assertProblem(flow([terminalScreen('ONLY', ['text', COMPLETE_FOOTER])]), C0, 'must be an object');
});
