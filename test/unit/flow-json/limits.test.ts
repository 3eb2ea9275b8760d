// biome-ignore-all lint/suspicious/noThenProperty: "then" is the If component's property name in Flow JSON.
import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
  type Json,
  screen,
  terminalScreen,
} from './helpers.ts';

const CHILDREN = 'screens[0].layout.children';
const body = (text = 'Hello'): Json => ({ type: 'TextBody', text });
const many = (n: number, make: (i: number) => Json) => Array.from({ length: n }, (_, i) => make(i));
const one = (children: unknown[]) => flow([terminalScreen('ONLY', children)]);

test('at most 50 components per screen', () => {
  assertValid(one([...many(49, () => body()), COMPLETE_FOOTER]));
  assertOnlyProblem(
    one([...many(50, () => body()), COMPLETE_FOOTER]),
    CHILDREN,
    'has 51 components; at most 50',
  );
});

test('only one Footer per screen', () => {
  assertOnlyProblem(one([COMPLETE_FOOTER, COMPLETE_FOOTER]), `${CHILDREN}[1]`, 'may show only one Footer');
});

test('a Footer in each If branch is fine, a Footer in If plus one outside is not', () => {
  const ifWithFooters: Json = {
    type: 'If',
    condition: 'true',
    then: [COMPLETE_FOOTER],
    else: [COMPLETE_FOOTER],
  };
  assertValid(one([ifWithFooters]));
  assertOnlyProblem(
    one([{ type: 'If', condition: 'true', then: [COMPLETE_FOOTER] }, COMPLETE_FOOTER]),
    `${CHILDREN}[1]`,
    'may show only one Footer',
  );
});

test('a terminal screen needs a Footer', () => {
  assertOnlyProblem(one([body()]), CHILDREN, 'A terminal screen needs a Footer');
});

test('a non-terminal screen may lack a Footer', () => {
  assertValid(
    flow([
      screen('A', [
        {
          type: 'EmbeddedLink',
          text: 'Next',
          'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'B' } },
        },
      ]),
      terminalScreen('B', [COMPLETE_FOOTER]),
    ]),
  );
});

test('at most 5 OptIns per screen', () => {
  const optIns = (n: number) => many(n, (i) => ({ type: 'OptIn', name: `o${i}`, label: 'Agree' }));
  assertValid(one([...optIns(5), COMPLETE_FOOTER]));
  assertOnlyProblem(one([...optIns(6), COMPLETE_FOOTER]), `${CHILDREN}[5]`, 'at most 5 OptIn components');
});

test('at most 2 EmbeddedLinks per screen', () => {
  const link: Json = {
    type: 'EmbeddedLink',
    text: 'Terms',
    'on-click-action': { name: 'open_url', url: 'https://e.com' },
  };
  assertValid(one([link, link, COMPLETE_FOOTER]));
  assertOnlyProblem(
    one([link, link, link, COMPLETE_FOOTER]),
    `${CHILDREN}[2]`,
    'at most 2 EmbeddedLink components',
  );
});

test('at most 3 Images per screen', () => {
  const image: Json = { type: 'Image', src: 'iVBORw0KGgo=' };
  assertValid(one([image, image, image, COMPLETE_FOOTER]));
  assertOnlyProblem(
    one([image, image, image, image, COMPLETE_FOOTER]),
    `${CHILDREN}[3]`,
    'at most 3 Image components',
  );
});

test('input names must be unique on a screen', () => {
  const input = (label: string): Json => ({ type: 'TextInput', name: 'email', label });
  assertOnlyProblem(
    one([input('Email'), { type: 'Form', name: 'f', children: [input('Again')] }, COMPLETE_FOOTER]),
    `${CHILDREN}[1].children[0].name`,
    `The name "email" is already used at ${CHILDREN}[0].name`,
  );
});

test('the same name in two branches of one If is fine', () => {
  const input: Json = { type: 'TextInput', name: 'contact', label: 'Contact' };
  assertValid(one([{ type: 'If', condition: 'true', then: [input], else: [input] }, COMPLETE_FOOTER]));
});

test('names only need to be unique within a screen', () => {
  const input: Json = { type: 'TextInput', name: 'email', label: 'Email' };
  assertValid(
    flow([
      screen('A', [
        input,
        {
          type: 'Footer',
          label: 'Next',
          'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'B' } },
        },
      ]),
      terminalScreen('B', [input, COMPLETE_FOOTER]),
    ]),
  );
  assertProblem(
    one([input, input, COMPLETE_FOOTER]),
    `${CHILDREN}[1].name`,
    'component names must be unique on a screen',
  );
});
