// Validates an uploaded Flow JSON file the way WhatsApp does before a flow can be published
// (docs/cloud-api.md §6.3–§6.5), reporting every problem with its path.

import type { FlowContext } from './context.ts';
import { inDocumentOrder } from './document-order.ts';
import { checkUniqueNames } from './names.ts';
import { parseFlowText } from './parse.ts';
import { at, isObject } from './paths.ts';
import { checkReferences, type ScreenFacts, screenFacts } from './references.ts';
import { checkRouting, type NavigateEdge, type ScreenNode } from './routing.ts';
import { checkScreenLimits } from './screen-limits.ts';
import { checkScreen, collectScreenIds } from './screens.ts';
import { checkTopLevel } from './top-level.ts';
import type { FlowJson, FlowJsonResult, FlowProblem, FlowScreen, FlowScreenSummary } from './types.ts';

export type {
  FlowComponent,
  FlowJson,
  FlowJsonResult,
  FlowProblem,
  FlowScreen,
  FlowScreenSummary,
} from './types.ts';

export function validateFlowJson(text: string): FlowJsonResult {
  const parsed = parseFlowText(text);
  if (!parsed.ok) return { ok: false, problems: [parsed.problem] };

  const problems: FlowProblem[] = [];
  const report = (path: string, rule: string) => {
    problems.push({ path, rule });
  };
  const top = checkTopLevel(parsed.value, report);
  if (top?.screens) {
    const screens = top.screens;
    const screenIds = collectScreenIds(screens, report);
    const { nodes, edges } = walkScreens(top, screens, screenIds, report);

    const first = screens[0];
    const entryId =
      isObject(first) && typeof first['id'] === 'string' && screenIds.has(first['id']) ? first['id'] : null;
    checkRouting(report, {
      routingModel: top.root['routing_model'],
      hasDataApi: top.hasDataApi,
      nodes,
      entryId,
      edges,
    });
  }

  if (problems.length > 0) return { ok: false, problems: inDocumentOrder(parsed.value, problems) };
  const flow = parsed.value as FlowJson;
  return { ok: true, flow, version: flow.version, screens: flow.screens.map(summarize) };
}

/**
 * Checks every screen (its components, limits, names and data references) and collects the routing graph:
 * the screens with a valid id as nodes, each navigate action as an edge.
 */
function walkScreens(
  top: NonNullable<ReturnType<typeof checkTopLevel>>,
  screens: unknown[],
  screenIds: Set<string>,
  report: (path: string, rule: string) => void,
): { nodes: ScreenNode[]; edges: NavigateEdge[] } {
  const edges: NavigateEdge[] = [];
  const nodes: ScreenNode[] = [];
  const facts = new Map<string, ScreenFacts>();
  const factsByIndex: (ScreenFacts | null)[] = screens.map((screen, i) => {
    if (!isObject(screen)) return null;
    const f = screenFacts(screen, screenPath(i));
    const id = screen['id'];
    if (typeof id === 'string' && screenIds.has(id) && !facts.has(id)) facts.set(id, f);
    return f;
  });

  screens.forEach((screen, i) => {
    const path = screenPath(i);
    const id = isObject(screen) && typeof screen['id'] === 'string' ? screen['id'] : null;
    // Only a valid, first-seen id names a node; a duplicate would otherwise mix two screens' edges.
    const isNode = id !== null && screenIds.has(id) && !nodes.some((n) => n.id === id);
    if (isNode) nodes.push({ id, index: i, terminal: isObject(screen) && screen['terminal'] === true });
    const ctx: FlowContext = {
      report,
      version: top.version,
      hasDataApi: top.hasDataApi,
      screenIds,
      onNavigate: (target, navPath) => {
        if (isNode) edges.push({ from: id, to: target, path: navPath });
      },
    };
    checkScreen(ctx, screen, path);
    if (!isObject(screen)) return;
    checkScreenLimits(report, screen, path);
    const layout = screen['layout'];
    if (isObject(layout) && Array.isArray(layout['children'])) {
      checkUniqueNames(report, layout['children'], at(at(path, 'layout'), 'children'));
    }
    const own = factsByIndex[i];
    if (own) checkReferences(report, screen, path, own, facts);
  });
  return { nodes, edges };
}

function screenPath(index: number): string {
  return at(at('', 'screens'), index);
}

function summarize(screen: FlowScreen): FlowScreenSummary {
  const summary: FlowScreenSummary = { id: screen.id, terminal: screen.terminal === true };
  if (screen.title !== undefined) summary.title = screen.title;
  return summary;
}
