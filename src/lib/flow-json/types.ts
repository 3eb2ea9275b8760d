// Shapes shared by every part of the Flow JSON validator. `index.ts` re-exports them as the public interface.

/** One thing wrong with an uploaded Flow JSON file. */
export interface FlowProblem {
  /** Where the problem is, e.g. `screens[1].layout.children[0].label`; "" means the whole document. */
  path: string;
  /** One English sentence saying what is wrong and what is allowed. */
  rule: string;
}

export interface FlowScreenSummary {
  id: string;
  title?: string;
  terminal: boolean;
}

export type FlowComponent = { type: string; [k: string]: unknown };

export type FlowScreen = {
  id: string;
  title?: string;
  terminal?: boolean;
  success?: boolean;
  data?: Record<string, unknown>;
  layout: { type: 'SingleColumnLayout'; children: FlowComponent[] };
  refresh_on_back?: boolean;
  [k: string]: unknown;
};

export type FlowJson = {
  version: string;
  screens: FlowScreen[];
  routing_model?: Record<string, string[]>;
  data_api_version?: string;
  [k: string]: unknown;
};

export type FlowJsonResult =
  | { ok: true; flow: FlowJson; version: string; screens: FlowScreenSummary[] }
  | { ok: false; problems: FlowProblem[] };

/** Every check reports through this, so problems from all passes land in one list. */
export type Report = (path: string, rule: string) => void;

/** A plain JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;
