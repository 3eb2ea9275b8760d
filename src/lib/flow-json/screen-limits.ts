// Per-screen counts: components, Footers, OptIns, EmbeddedLinks, Images (docs/cloud-api.md §6.4, §6.5 items 3 and 5).

import { at, isObject } from './paths.ts';
import type { JsonObject, Report } from './types.ts';
import { childListsOf, forEachComponent } from './walk.ts';

/** docs/cloud-api.md §6.5 (3): at most 50 components on one screen (nested ones included). */
export const MAX_COMPONENTS_PER_SCREEN = 50;
/** docs/cloud-api.md §6.4: counted per screen, across all branches. */
export const MAX_PER_SCREEN: Readonly<Record<string, number>> = {
  OptIn: 5,
  EmbeddedLink: 2,
  Image: 3,
};

export function checkScreenLimits(report: Report, screen: JsonObject, path: string): void {
  const layout = screen['layout'];
  if (!isObject(layout) || !Array.isArray(layout['children'])) return;
  const children = layout['children'];
  const childrenPath = at(at(path, 'layout'), 'children');

  let total = 0;
  const seen: Record<string, number> = {};
  forEachComponent(children, childrenPath, (component, componentPath) => {
    total++;
    const type = component['type'];
    if (typeof type !== 'string') return;
    const limit = MAX_PER_SCREEN[type];
    if (limit === undefined) return;
    seen[type] = (seen[type] ?? 0) + 1;
    // Reported once, at the first component over the limit, so the user sees which one to drop.
    if (seen[type] === limit + 1) {
      report(
        componentPath,
        `A screen may hold at most ${limit} ${type} components; this is number ${limit + 1}.`,
      );
    }
  });
  if (total > MAX_COMPONENTS_PER_SCREEN) {
    report(
      childrenPath,
      `This screen has ${total} components; at most ${MAX_COMPONENTS_PER_SCREEN} are allowed per screen.`,
    );
  }

  // Only one branch of an If/Switch is shown, so Footers are counted along the branch that shows the most.
  const footers = footersOnBusiestBranch(children, childrenPath);
  const second = footers[1];
  if (second !== undefined) {
    report(
      second,
      'A screen may show only one Footer; remove this one or put the Footers in different If/Switch branches.',
    );
  }
  if (screen['terminal'] === true && footers.length === 0) {
    report(childrenPath, 'A terminal screen needs a Footer so the user can finish the flow.');
  }
}

function footersOnBusiestBranch(children: unknown[], path: string): string[] {
  const found: string[] = [];
  children.forEach((child, i) => {
    if (!isObject(child)) return;
    const childPath = at(path, i);
    if (child['type'] === 'Footer') {
      found.push(childPath);
      return;
    }
    const lists = childListsOf(child, childPath);
    if (child['type'] === 'Form') {
      for (const list of lists) found.push(...footersOnBusiestBranch(list.children, list.path));
      return;
    }
    let busiest: string[] = [];
    for (const list of lists) {
      const branch = footersOnBusiestBranch(list.children, list.path);
      if (branch.length > busiest.length) busiest = branch;
    }
    found.push(...busiest);
  });
  return found;
}
