/**
 * Checks an import graph against the layers of layers.ts. Pure: it takes the edges and the rules, and
 * answers with readable problems, so a deliberately wrong graph can be fed to it in a test.
 */
import type { ImportEdge } from './import-graph.ts';
import type { KnownDebt, Layer } from './layers.ts';

export interface BoundaryReport {
  /** Imports that break a rule and are not known debts: `file:line imports 'x' (path): rule`. */
  violations: string[];
  /** Source files under src/ that no layer claims. */
  unplaced: string[];
  /** Known debts whose import no longer exists or no longer breaks a rule: delete them. */
  staleDebts: string[];
}

/** The layer a file belongs to: the one with the longest matching path, so nested folders may differ. */
export function layerOf(file: string, layers: readonly Layer[]): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of layers) {
    for (const p of layer.paths) {
      const matches = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (matches && (!best || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

/** Why `edge` breaks a rule, or undefined when it is allowed. */
function brokenRule(edge: ImportEdge, layers: readonly Layer[]): string | undefined {
  const from = layerOf(edge.from, layers);
  const to = layerOf(edge.to, layers);
  // Files outside every layer are reported as unplaced (or are not under src/ at all).
  if (!from || !to || from === to || from.mayImport === 'anything') return undefined;
  const access = from.mayImport[to.name];
  const allowed = Object.entries(from.mayImport).map(([name, how]) =>
    how === 'types' ? `${name} (types)` : name,
  );
  const rule = `${from.name} may import only ${allowed.join(', ') || 'its own files'}: ${from.why}`;
  if (access === undefined) return rule;
  if (access === 'types' && !edge.typeOnly)
    return `${from.name} may import ${to.name} only with import type; ${rule}`;
  return undefined;
}

const debtKey = (from: string, to: string) => `${from} -> ${to}`;

export function checkBoundaries(
  files: readonly string[],
  edges: readonly ImportEdge[],
  layers: readonly Layer[],
  knownDebts: readonly KnownDebt[],
): BoundaryReport {
  const debts = new Set(knownDebts.map((d) => debtKey(d.from, d.to)));
  const usedDebts = new Set<string>();
  const violations: string[] = [];
  for (const edge of edges) {
    const rule = brokenRule(edge, layers);
    if (rule === undefined) continue;
    const key = debtKey(edge.from, edge.to);
    if (debts.has(key)) usedDebts.add(key);
    else violations.push(`${edge.from}:${edge.line} imports '${edge.specifier}' (${edge.to}): ${rule}`);
  }
  return {
    violations,
    unplaced: files.filter((file) => !layerOf(file, layers)),
    staleDebts: [...debts].filter((key) => !usedDebts.has(key)),
  };
}
