/**
 * axe-core run in a Playwright page: the serious and critical accessibility violations of the page as it
 * is now, each in words (its rule, axe's description and the elements it was found on). The page's
 * context must be made with `bypassCSP: true`: axe is injected as a script, which the gateway's own
 * policy refuses.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Loads axe into every page of `context` as it opens, for a suite that checks many pages: sending its half
 * megabyte into each page after it loaded cost Chromium about 0.1 s of CPU a check.
 */
export async function axeOnEveryPage(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE_SOURCE });
}

export async function seriousViolations(page: any): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const found: Finding[] = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run((globalThis as any).document, {
      resultTypes: ['violations'],
    });
    return result.violations;
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
