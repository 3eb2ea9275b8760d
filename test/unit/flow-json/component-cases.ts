// Runs a valid and an invalid example for each component type.

import { test } from 'node:test';
import { assertOnlyProblem, assertValid, C0, flowWith, type Json } from './helpers.ts';

export interface ComponentCase {
  valid: Json;
  /** Each invalid variant breaks exactly one rule, found at `C0 + path`. */
  invalid: { component: Json; path: string; rule: string }[];
}

export function componentCases(cases: Record<string, ComponentCase>): void {
  for (const [type, c] of Object.entries(cases)) {
    test(`${type}: a valid one is accepted`, () => {
      assertValid(flowWith(c.valid));
    });
    for (const bad of c.invalid) {
      test(`${type}: refused when ${bad.rule}`, () => {
        assertOnlyProblem(flowWith(bad.component), C0 + bad.path, bad.rule);
      });
    }
  }
}
