/**
 * `npm test`: every suite under test/, with Node's own runner, each file in its own process. Suites are
 * mostly I/O-bound (real HTTP, real databases), so several files run at once even on two cores.
 *
 * Two things keep the whole run short on a small machine:
 * - the longest files start first (LONGEST_FIRST): the run lasts at least as long as its longest file, so
 *   one started last would run alone at the end while the other cores idle;
 * - Node's compile cache (NODE_COMPILE_CACHE) keeps the TypeScript-stripped, compiled sources between the
 *   test processes and the gateway and CLI processes the suites spawn, so each one does not strip and
 *   compile the whole application again (about half of every process start).
 *
 * `npm test -- test/unit/*.test.ts` runs only the files named (globs allowed).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, globSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { dropRunSchemas, RUN_ENV } from './support/postgres.ts';

/** The slowest files, slowest first (measured on two cores); every other file follows in name order. */
const LONGEST_FIRST = [
  'test/e2e/crash-safety.test.ts',
  'test/e2e/security.test.ts',
  'test/e2e/cli.test.ts',
  'test/e2e/multi-node-dedup.test.ts',
  'test/e2e/three-nodes.test.ts',
  'test/e2e/inbound-crash-safety.test.ts',
  'test/e2e/portal.test.ts',
  'test/e2e/journey-browser.test.ts',
  'test/e2e/media-browser.test.ts',
  'test/e2e/network-webhook-batches.test.ts',
  'test/e2e/bad-input.property.test.ts',
  'test/e2e/network-faults.test.ts',
  'test/e2e/portal-lockout-race.test.ts',
  'test/e2e/listen-address.test.ts',
];

/**
 * Files that measure time itself (a send pace the network must see): they run after the others, one at a
 * time, so that no other suite's load starves the processes they time.
 */
const ALONE = ['test/e2e/shared-pacing.test.ts'];

/** How many test files run at once. */
const CONCURRENCY = 4;

const ROOT = path.resolve(import.meta.dirname, '..');

function orderedFiles(patterns: string[]): string[] {
  const files = [...new Set(patterns.flatMap((p) => globSync(p, { cwd: ROOT })))].sort();
  const rank = (file: string) => {
    const i = LONGEST_FIRST.indexOf(file);
    return i === -1 ? LONGEST_FIRST.length : i;
  };
  // Array.prototype.sort is stable: files outside LONGEST_FIRST keep their name order.
  return files.sort((a, b) => rank(a) - rank(b)).map((f) => path.join(ROOT, f));
}

const extra = process.argv.slice(2);
const files = orderedFiles(extra.length ? extra : ['test/**/*.test.ts']);
const browser = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!browser)
  process.stdout.write('note: chromium is not installed; browser suites (if any) skip themselves\n');

// The test processes inherit this environment, and the gateways and CLIs they spawn inherit theirs.
process.env.SWITCHBOARD_CHROMIUM = browser ?? '';
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'switchboard-test-compile-cache');
// PostgreSQL schemas are dropped once every file is done (test/support/postgres.ts says why).
const runId = randomBytes(4).toString('hex');
process.env[RUN_ENV] = runId;

async function runFiles(batch: string[], concurrency: number): Promise<void> {
  if (batch.length === 0) return;
  const report = run({ files: batch, concurrency, cwd: ROOT })
    .on('test:fail', (event) => {
      // A failing `todo` test is expected to fail and does not fail the run, as with `node --test`.
      if (!event.todo) process.exitCode = 1;
    })
    .compose(new spec());
  report.pipe(process.stdout, { end: false });
  await finished(report);
}

const alone = new Set(ALONE.map((f) => path.join(ROOT, f)));
await runFiles(
  files.filter((f) => !alone.has(f)),
  CONCURRENCY,
);
await runFiles(
  files.filter((f) => alone.has(f)),
  1,
);
await dropRunSchemas(runId);
