/**
 * One headless Chromium per test process, shared by the browser suites that run in it one after another
 * (test/run.ts runs a shard's files in one process). A launch of the headless shell with its first page
 * costs about 0.3 s of CPU (0.2 s Chromium's, 0.1 s the suite's), and a whole run has fifteen browser
 * suites. Each suite works in contexts of its own, so cookies, storage and viewports stay apart, and closes
 * them; the browser itself is closed once no suite has used it for LINGER_MS, so that a process running a
 * single file still ends.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

/**
 * How long the browser outlives its last suite: half a second for a file run on its own. `npm test` sets
 * SWITCHBOARD_BROWSER_LINGER_MS to keep it for the whole shard, whose browser suites run among other files
 * (in name order): with half a second, a run launched Chromium 11 times instead of 4. A shard ends with
 * --test-force-exit, and Playwright's exit handler kills the browser then.
 */
const LINGER_MS = Number(process.env.SWITCHBOARD_BROWSER_LINGER_MS) || 500;

let shared: Promise<Browser> | undefined;
let users = 0;
let idle: NodeJS.Timeout | undefined;

/** What a suite uses of the browser: its own contexts and pages, closed together. */
export interface SuiteBrowser {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** A page in a new context of its own, as Playwright's `browser.newPage` makes one. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Closes this suite's contexts; the browser stays for the next suite. */
  close(): Promise<void>;
}

async function launched(executablePath: string): Promise<Browser> {
  const current = await shared?.catch(() => undefined);
  if (current?.isConnected()) return current;
  // Never launched, failed to launch, or crashed in an earlier suite: launch anew.
  shared = import('playwright-core').then(({ chromium }) =>
    chromium.launch({ executablePath, args: ['--no-sandbox'] }),
  );
  return shared;
}

/** The process's Chromium at `executablePath` (launched on first use), for one suite. */
export async function openBrowser(executablePath: string): Promise<SuiteBrowser> {
  clearTimeout(idle);
  const browser = await launched(executablePath);
  users++;
  const contexts = new Set<BrowserContext>();
  let closed = false;
  const newContext = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    contexts.add(context);
    return context;
  };
  return {
    newContext,
    newPage: async (options) => (await newContext(options)).newPage(),
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...contexts].map((c) => c.close().catch(() => undefined)));
      if (--users > 0) return;
      idle = setTimeout(() => {
        const closing = shared;
        shared = undefined;
        void closing?.then((b) => b.close()).catch(() => undefined);
      }, LINGER_MS);
    },
  };
}
