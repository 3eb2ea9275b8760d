// biome-ignore-all lint/suspicious/noThenProperty: "then" is the If component's property name in Flow JSON.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flow JSON bindings are literal "${…}" text, not template slots.
import { test } from 'node:test';
import {
  assertOnlyProblem,
  assertValid,
  COMPLETE_FOOTER,
  flow,
  type Json,
  navigateFooter,
  screen,
  terminalScreen,
} from './helpers.ts';

const completeWith = (payload: Json): Json => ({
  type: 'Footer',
  label: 'Send',
  'on-click-action': { name: 'complete', payload },
});
const nameInput: Json = { type: 'TextInput', name: 'name', label: 'Name' };
const PAYLOAD = 'screens[0].layout.children[1].on-click-action.payload';

test('${form.x} naming an input on the same screen resolves', () => {
  assertValid(flow([terminalScreen('ONLY', [nameInput, completeWith({ n: '${form.name}' })])]));
});

test('${form.x} naming no input on the screen is refused', () => {
  assertOnlyProblem(
    flow([terminalScreen('ONLY', [nameInput, completeWith({ n: '${form.nickname}' })])]),
    `${PAYLOAD}.n`,
    'refers to an input named "nickname", but this screen has no input with that name',
  );
});

test('${form.x} naming an input of another screen is refused', () => {
  assertOnlyProblem(
    flow([
      screen('A', [nameInput, navigateFooter('B')]),
      terminalScreen('B', [{ type: 'TextBody', text: 'Hi' }, completeWith({ n: '${form.name}' })]),
    ]),
    'screens[1].layout.children[1].on-click-action.payload.n',
    'this screen has no input with that name',
  );
});

test('${data.x} declared in the screen data resolves', () => {
  assertValid(
    flow([
      terminalScreen('ONLY', [{ type: 'TextBody', text: '${data.greeting}' }, completeWith({})], {
        data: { greeting: { type: 'string', __example__: 'Hello' } },
      }),
    ]),
  );
});

test('${data.x} not declared in the screen data is refused', () => {
  assertOnlyProblem(
    flow([
      terminalScreen('ONLY', [{ type: 'TextBody', text: '${data.greeting}' }, COMPLETE_FOOTER], { data: {} }),
    ]),
    'screens[0].layout.children[0].text',
    'refers to "greeting", but it is not declared in the "data" of this screen',
  );
});

test('references inside an If condition are checked', () => {
  assertOnlyProblem(
    flow([
      terminalScreen('ONLY', [
        { type: 'If', condition: '${form.age} > 17', then: [{ type: 'TextBody', text: 'Adult' }] },
        COMPLETE_FOOTER,
      ]),
    ]),
    'screens[0].layout.children[0].condition',
    'refers to an input named "age"',
  );
});

test('${screen.ID.form.x} and ${screen.ID.data.x} resolve against that screen', () => {
  const document = (ref: string) =>
    flow([
      screen('A', [nameInput, navigateFooter('B')], {
        data: { code: { type: 'string', __example__: 'X1' } },
      }),
      terminalScreen('B', [completeWith({ v: ref })]),
    ]);
  assertValid(document('${screen.A.form.name}'));
  assertValid(document('${screen.A.data.code}'));
  assertOnlyProblem(
    document('${screen.A.form.email}'),
    'screens[1].layout.children[0].on-click-action.payload.v',
    'screen A has no input with that name',
  );
  assertOnlyProblem(
    document('${screen.Z.data.code}'),
    'screens[1].layout.children[0].on-click-action.payload.v',
    'names screen "Z", which is not a screen of this flow',
  );
});

test('a dynamic data-source must be declared data', () => {
  assertOnlyProblem(
    flow([
      terminalScreen('ONLY', [
        { type: 'Dropdown', name: 'd', label: 'Pick', 'data-source': '${data.options}' },
        COMPLETE_FOOTER,
      ]),
    ]),
    'screens[0].layout.children[0].data-source',
    'refers to "options"',
  );
});
