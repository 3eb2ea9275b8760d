/**
 * The simulated network's WhatsApp Flows (docs/cloud-api.md §6): in memory, and in the state journal (one
 * record per flow) so a restart keeps them.
 * A flow is DRAFT until published, PUBLISHED until deprecated (docs/cloud-api.md §6.2); its Flow JSON is checked
 * with the gateway's own validator, so what the simulator accepts is what the gateway accepts.
 */
import { randomInt } from 'node:crypto';
import { type FlowProblem, validateFlowJson } from '../lib/flow-json/index.ts';
import { type GraphError, graphError } from './graph-errors.ts';
import type { StateJournal } from './state/journal.ts';
import type { Json } from './validate-fields.ts';

export type SimFlowStatus = 'DRAFT' | 'PUBLISHED' | 'DEPRECATED';

/** One entry of `validation_errors[]` in Meta's shape (docs/cloud-api.md §6.1). */
export interface SimFlowValidationError {
  error: string;
  error_type: 'FLOW_JSON_ERROR' | 'JSON_SCHEMA_ERROR';
  message: string;
  pointers: { path: string }[];
}

export interface SimFlow {
  id: string;
  wabaId: string;
  name: string;
  categories: string[];
  status: SimFlowStatus;
  flowJson: string | null;
  /** Screen ids of the uploaded Flow JSON (a send may only open one of them). */
  screens: string[];
  /** Flow JSON version, once uploaded. */
  jsonVersion: string | null;
  validationErrors: SimFlowValidationError[];
}

/** Flow errors (docs/cloud-api.md §6.6) in the Graph error shape, with Meta's user-facing title. */
export function flowError(code: number, details: string): GraphError {
  const error = graphError(code, details);
  const titles: Record<number, string> = {
    139001: 'Flow update failed',
    139002: 'Flow publishing failed',
    139003: 'Flow deprecation failed',
    139004: 'Flow deletion failed',
  };
  const title = titles[code] ?? 'Flow error';
  error.body.error.message = `(#${code}) ${title}`;
  return error;
}

function toValidationError(problem: FlowProblem): SimFlowValidationError {
  return {
    error: 'INVALID_FLOW_JSON',
    error_type: 'FLOW_JSON_ERROR',
    message: problem.rule,
    pointers: [{ path: problem.path }],
  };
}

/** The journal's kind, keyed by flow id; `seq` keeps the creation order lists follow. */
export const FLOW_KIND = 'flow';

export interface FlowRecord {
  seq: number;
  flow: SimFlow;
}

export class FlowCatalog {
  readonly #flows = new Map<string, SimFlow>();
  readonly #seqOf = new WeakMap<SimFlow, number>();
  readonly #journal: StateJournal;
  #seq = 0;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The flows a journal kept (state/restore.ts). */
  restore(records: FlowRecord[]): void {
    for (const { seq, flow } of [...records].sort((a, b) => a.seq - b.seq)) {
      this.#flows.set(flow.id, flow);
      this.#seqOf.set(flow, seq);
      this.#seq = Math.max(this.#seq, seq);
    }
  }

  /** Notes a change of the flow's fields (name, categories, status) in the journal. */
  save(flow: SimFlow): void {
    const record: FlowRecord = { seq: this.#seqOf.get(flow) ?? 0, flow };
    this.#journal.put(FLOW_KIND, flow.id, record);
  }

  /** Graph ids are numeric strings; 16 digits never collide with a phone-number id (E.164 has at most 15). */
  #newId(): string {
    let id: string;
    // randomInt spans at most 2^48, so the 15 random digits come in two draws.
    do id = `1${String(randomInt(0, 1e8)).padStart(8, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
    while (this.#flows.has(id));
    return id;
  }

  create(wabaId: string, name: string, categories: string[]): SimFlow {
    const flow: SimFlow = {
      id: this.#newId(),
      wabaId,
      name,
      categories,
      status: 'DRAFT',
      flowJson: null,
      screens: [],
      jsonVersion: null,
      // Meta reports a flow without Flow JSON as invalid until one is uploaded.
      validationErrors: [
        {
          error: 'MISSING_FLOW_JSON',
          error_type: 'FLOW_JSON_ERROR',
          message: 'The flow has no Flow JSON yet; upload one as an asset.',
          pointers: [],
        },
      ],
    };
    this.#flows.set(flow.id, flow);
    this.#seqOf.set(flow, ++this.#seq);
    this.save(flow);
    return flow;
  }

  get(id: string): SimFlow | undefined {
    return this.#flows.get(id);
  }

  list(wabaId: string): SimFlow[] {
    return [...this.#flows.values()].filter((f) => f.wabaId === wabaId);
  }

  /** Stores the Flow JSON of a DRAFT flow; its problems are kept and block publishing, not saving. */
  uploadJson(flow: SimFlow, text: string): SimFlowValidationError[] {
    const result = validateFlowJson(text);
    flow.flowJson = text;
    if (result.ok) {
      flow.validationErrors = [];
      flow.screens = result.screens.map((s) => s.id);
      flow.jsonVersion = result.version;
    } else {
      flow.validationErrors = result.problems.map(toValidationError);
      flow.screens = [];
      flow.jsonVersion = null;
    }
    this.save(flow);
    return flow.validationErrors;
  }

  /**
   * Whether the flow's Flow JSON uses a data endpoint (`data_api_version`): Meta publishes such a flow only
   * once its endpoint URI, a connected app and the business's public key are set (docs/cloud-api.md §6.2),
   * none of which this network keeps, so it never publishes one.
   */
  needsEndpoint(flow: SimFlow): boolean {
    if (!flow.flowJson) return false;
    try {
      const json: unknown = JSON.parse(flow.flowJson.replace(/^\uFEFF/, ''));
      return typeof json === 'object' && json !== null && 'data_api_version' in json;
    } catch {
      return false;
    }
  }

  delete(id: string): void {
    this.#flows.delete(id);
    this.#journal.remove(FLOW_KIND, id);
  }

  /**
   * Why an interactive flow message cannot be sent, or undefined when it can (docs/cloud-api.md §1.3, §6.2): the
   * flow must be one of the sender's WABA (a simulated number is its own WABA), must not be deprecated,
   * and must be published unless the message says `mode: draft`.
   */
  sendProblem(business: string, interactive: Json): GraphError | undefined {
    if (interactive.type !== 'flow') return undefined;
    const parameters = (interactive.action as Json).parameters as Json;
    const path = 'interactive.action.parameters';
    const byId = typeof parameters.flow_id === 'string' ? parameters.flow_id : undefined;
    const ofWaba = (f: SimFlow | undefined) => (f?.wabaId === business ? f : undefined);
    const flow = byId
      ? ofWaba(this.#flows.get(byId))
      : [...this.#flows.values()].find((f) => f.wabaId === business && f.name === parameters.flow_name);
    const named = byId ? `${path}.flow_id` : `${path}.flow_name`;
    const value = byId ?? String(parameters.flow_name);
    if (!flow)
      return graphError(
        131009,
        `Parameter '${named}' names no flow of this WhatsApp Business Account: "${value}".`,
      );
    if (flow.status === 'DEPRECATED') {
      return graphError(
        131009,
        `Parameter '${named}': flow ${flow.id} is deprecated and can no longer be sent.`,
      );
    }
    const mode = parameters.mode ?? 'published';
    if (mode === 'published' && flow.status !== 'PUBLISHED') {
      return graphError(
        131009,
        `Parameter '${path}.mode': flow ${flow.id} is ${flow.status}; publish it, or send it with mode "draft".`,
      );
    }
    const payload = parameters.flow_action_payload as Json | undefined;
    if (payload && typeof payload.screen === 'string' && !flow.screens.includes(payload.screen)) {
      return graphError(
        131009,
        `Parameter '${path}.flow_action_payload.screen': flow ${flow.id} has no screen "${payload.screen}".`,
      );
    }
    return undefined;
  }
}
