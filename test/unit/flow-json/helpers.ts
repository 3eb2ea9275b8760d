// Builders for small Flow JSON documents and assertions on the validator's answer.

import assert from 'node:assert/strict';
import { type FlowJsonResult, type FlowProblem, validateFlowJson } from '../../../src/lib/flow-json/index.ts';

export type Json = Record<string, unknown>;

export const COMPLETE_FOOTER: Json = {
  type: 'Footer',
  label: 'Done',
  'on-click-action': { name: 'complete', payload: {} },
};

export function navigateFooter(target: string, payload: Json = {}): Json {
  return {
    type: 'Footer',
    label: 'Next',
    'on-click-action': { name: 'navigate', next: { type: 'screen', name: target }, payload },
  };
}

export function screen(id: string, children: unknown[], extra: Json = {}): Json {
  return { id, title: id, layout: { type: 'SingleColumnLayout', children }, ...extra };
}

export function terminalScreen(id: string, children: unknown[], extra: Json = {}): Json {
  return screen(id, children, { terminal: true, ...extra });
}

export function flow(screens: unknown[], extra: Json = {}): Json {
  return { version: '7.1', screens, ...extra };
}

/** A one-screen terminal flow holding `component` (plus a completing Footer unless it is a Footer itself). */
export function flowWith(component: Json, extra: Json = {}): Json {
  const children = component['type'] === 'Footer' ? [component] : [component, COMPLETE_FOOTER];
  return flow([terminalScreen('ONLY', children)], extra);
}

export function validate(document: unknown): FlowJsonResult {
  return validateFlowJson(typeof document === 'string' ? document : JSON.stringify(document, null, 2));
}

export function assertValid(document: unknown): void {
  const result = validate(document);
  assert.deepEqual(result.ok ? [] : result.problems, [], 'expected the Flow JSON to be valid');
}

export function problemsOf(document: unknown): FlowProblem[] {
  const result = validate(document);
  assert.equal(result.ok, false, 'expected the Flow JSON to be refused');
  return result.ok ? [] : result.problems;
}

/** Asserts that a problem at exactly `path` has a rule containing `rule`, and returns all problems. */
export function assertProblem(document: unknown, path: string, rule: string): FlowProblem[] {
  const problems = problemsOf(document);
  const hit = problems.find((p) => p.path === path && p.rule.includes(rule));
  assert.ok(hit, `no problem at "${path}" containing "${rule}"; got:\n${JSON.stringify(problems, null, 2)}`);
  return problems;
}

/** Like assertProblem, and also that it is the only problem, so the test isolates one rule. */
export function assertOnlyProblem(document: unknown, path: string, rule: string): void {
  const problems = assertProblem(document, path, rule);
  assert.equal(problems.length, 1, `expected one problem; got:\n${JSON.stringify(problems, null, 2)}`);
}

export const C0 = 'screens[0].layout.children[0]';
