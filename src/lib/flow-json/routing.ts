// Screen graph rules: terminal screens, `routing_model`, navigate edges and reachability
// (docs/cloud-api.md §6.3 "routing_model", §6.5 items 4 and 5).

import { at, isObject, kindOf } from './paths.ts';
import type { Report } from './types.ts';

export interface NavigateEdge {
  from: string;
  to: string;
  /** Path of the `next.name` that made this edge, for problem reports. */
  path: string;
}

export interface ScreenNode {
  id: string;
  index: number;
  terminal: boolean;
}

export interface RoutingInput {
  routingModel: unknown;
  hasDataApi: boolean;
  /** Screens with a valid id, in document order; the first entry of `screens` is the entry screen. */
  nodes: ScreenNode[];
  entryId: string | null;
  edges: NavigateEdge[];
}

export function checkRouting(report: Report, input: RoutingInput): void {
  const ids = new Set(input.nodes.map((n) => n.id));
  const model = checkRoutingModel(report, input.routingModel, ids);
  if (input.routingModel === undefined && input.hasDataApi) {
    // With an endpoint Meta cannot derive the routes from navigate actions, because the endpoint picks the next screen.
    report(
      'routing_model',
      'A flow with "data_api_version" needs a "routing_model" listing the screens each screen can lead to.',
    );
  }
  if (model) {
    for (const edge of input.edges) {
      if (!model.get(edge.from)?.has(edge.to)) {
        report(
          edge.path,
          `Screen ${edge.from} navigates to ${edge.to}, but routing_model does not list ${edge.to} under ${edge.from}; add the route or change the target.`,
        );
      }
    }
  }
  if (input.nodes.length > 0 && !input.nodes.some((n) => n.terminal)) {
    report('screens', 'At least one screen must be terminal ("terminal": true) so the flow can end.');
  }
  if (input.entryId !== null) reportUnreachable(report, input, model);
}

/** Returns the valid routes of `routing_model` (or null when absent or unusable). */
function checkRoutingModel(
  report: Report,
  value: unknown,
  ids: ReadonlySet<string>,
): Map<string, Set<string>> | null {
  if (value === undefined) return null;
  if (!isObject(value)) {
    report(
      'routing_model',
      `"routing_model" must map screen ids to arrays of screen ids, not ${kindOf(value)}.`,
    );
    return null;
  }
  const model = new Map<string, Set<string>>();
  for (const [from, targets] of Object.entries(value)) {
    const fromPath = at('routing_model', from);
    if (!ids.has(from)) {
      report(fromPath, `routing_model names "${from}", which is not a screen of this flow.`);
    }
    if (!Array.isArray(targets)) {
      report(fromPath, `routing_model["${from}"] must be an array of screen ids, not ${kindOf(targets)}.`);
      continue;
    }
    const routes = new Set<string>();
    targets.forEach((to, i) => {
      const rule = routeProblem(from, to, ids);
      if (rule) report(at(fromPath, i), rule);
      else routes.add(to as string);
    });
    model.set(from, routes);
  }
  return model;
}

function routeProblem(from: string, to: unknown, ids: ReadonlySet<string>): string | null {
  if (typeof to !== 'string') return `Route targets must be screen ids (strings), not ${kindOf(to)}.`;
  if (!ids.has(to)) return `routing_model routes ${from} to "${to}", which is not a screen of this flow.`;
  if (to === from) return `Screen ${from} must not route to itself in routing_model.`;
  return null;
}

function reportUnreachable(
  report: Report,
  input: RoutingInput,
  model: Map<string, Set<string>> | null,
): void {
  const next = new Map<string, Set<string>>();
  const link = (from: string, to: string) => {
    const set = next.get(from) ?? new Set<string>();
    set.add(to);
    next.set(from, set);
  };
  for (const edge of input.edges) link(edge.from, edge.to);
  // An endpoint may send the user to any screen routing_model allows, so those routes count as reachable too.
  for (const [from, targets] of model ?? []) for (const to of targets) link(from, to);

  const reached = new Set<string>([input.entryId as string]);
  const queue = [input.entryId as string];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const to of next.get(id) ?? []) {
      if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
    }
  }
  for (const node of input.nodes) {
    if (!reached.has(node.id)) {
      report(
        at(at('', 'screens'), node.index),
        `Screen ${node.id} cannot be reached from the first screen (${input.entryId}); link it with a navigate action or a routing_model route, or remove it.`,
      );
    }
  }
}
