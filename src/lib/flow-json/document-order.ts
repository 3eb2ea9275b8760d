// Problems are gathered in several passes (structure, references, routing); sorting them by where their path
// sits in the document gives the reader one stable, top-to-bottom list.

import { at, isObject, parentPath } from './paths.ts';
import type { FlowProblem } from './types.ts';

export function inDocumentOrder(root: unknown, problems: FlowProblem[]): FlowProblem[] {
  const order = new Map<string, number>();
  const number = (value: unknown, path: string) => {
    order.set(path, order.size);
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        number(item, at(path, i));
      });
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) number(item, at(path, key));
    }
  };
  number(root, '');
  // A missing property has no position of its own; it sorts with the object that lacks it.
  const rank = (path: string): number => {
    for (let p: string | null = path; p !== null; p = parentPath(p)) {
      const n = order.get(p);
      if (n !== undefined) return n;
    }
    return 0;
  };
  return problems
    .map((problem, index) => ({ problem, index, rank: rank(problem.path) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.problem);
}
