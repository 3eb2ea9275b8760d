// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Flow JSON bindings are literal "${…}" text, not template slots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { validateFlowJson } from '../../../src/lib/flow-json/index.ts';

test('examples/flows/sign-up.json validates and summarises its screens', () => {
  const text = readFileSync(new URL('../../../examples/flows/sign-up.json', import.meta.url), 'utf8');
  const result = validateFlowJson(text);
  assert.deepEqual(result.ok ? [] : result.problems, []);
  assert.ok(result.ok);
  assert.equal(result.version, '7.1');
  assert.deepEqual(result.screens, [
    { id: 'SIGN_UP', title: 'Sign up', terminal: false },
    { id: 'PREFERENCES', title: 'Preferences', terminal: true },
  ]);
  assert.equal(result.flow.screens.length, 2);
});

test('the docs/cloud-api.md §6.3 sample validates', () => {
  const sample = {
    version: '7.1',
    screens: [
      {
        id: 'WELCOME',
        title: 'Welcome',
        data: {},
        layout: {
          type: 'SingleColumnLayout',
          children: [
            { type: 'TextHeading', text: 'Sign up' },
            { type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'email', required: true },
            {
              type: 'Footer',
              label: 'Continue',
              'on-click-action': {
                name: 'navigate',
                next: { type: 'screen', name: 'DETAILS' },
                payload: { email: '${form.email}' },
              },
            },
          ],
        },
      },
      {
        id: 'DETAILS',
        title: 'Details',
        terminal: true,
        success: true,
        data: { email: { type: 'string', __example__: 'a@b.c' } },
        layout: {
          type: 'SingleColumnLayout',
          children: [
            {
              type: 'RadioButtonsGroup',
              name: 'plan',
              label: 'Plan',
              required: true,
              'data-source': [
                { id: 'basic', title: 'Basic' },
                { id: 'pro', title: 'Pro' },
              ],
            },
            {
              type: 'Footer',
              label: 'Submit',
              'on-click-action': {
                name: 'complete',
                payload: { email: '${data.email}', plan: '${form.plan}' },
              },
            },
          ],
        },
      },
    ],
  };
  const result = validateFlowJson(JSON.stringify(sample));
  assert.deepEqual(result.ok ? [] : result.problems, []);
});
