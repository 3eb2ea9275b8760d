// What the component and action checks need to know about the flow around them.

import type { Report } from './types.ts';
import type { FlowVersion } from './version.ts';

export interface FlowContext {
  report: Report;
  version: FlowVersion;
  /** True when the flow declares `data_api_version`, i.e. it talks to a data endpoint. */
  hasDataApi: boolean;
  screenIds: ReadonlySet<string>;
  /** Called for every `navigate` action so routing can compare the edges with `routing_model`. */
  onNavigate(target: string, path: string): void;
}

/** Where a component sits: containers change what is allowed inside them. */
export interface Nesting {
  insideForm: boolean;
  ifDepth: number;
}

export interface ComponentContext extends FlowContext, Nesting {
  validateChildren(children: unknown, path: string, nesting: Nesting): void;
}
