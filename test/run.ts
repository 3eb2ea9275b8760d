/**
 * `npm test`: every suite under test/, with Node's own runner.
 *
 * Most of a suite's cost on a small machine is not its tests but starting a process and loading the
 * application into it (about 0.7 s of CPU each, measured with --cpu-prof: module resolution, compiling,
 * type stripping). So the files are not each given a process of their own: they are dealt into a few
 * shards, and each shard is one process that runs its files one after another
 * (`--test-isolation=none`). The files load the application once per shard, and what runs is already
 * compiled by the time most of them run. No suite changes process-wide state (environment, working
 * directory, process handlers); test/architecture/shared-process.test.ts keeps it so.
 *
 * - Shards are dealt by cost (COST_SECONDS, measured seconds; 1 for any other end-to-end file, 0.1 for
 *   the rest), the costliest first, each to the shard with the least so far: the run lasts as long as its
 *   longest shard.
 * - SHARDS is more than the two cores of the machine this runs on: a shard waiting on a spawned process, a
 *   browser or a database leaves its core to another.
 * - Node's compile cache (NODE_COMPILE_CACHE) keeps compiled sources for the gateway and CLI processes
 *   the suites spawn.
 * - Files that measure time itself run after the others, one at a time, each in its own process (ALONE).
 *
 * Where the time goes, measured on a two-core machine by sampling every process's CPU through a whole run
 * (116 s, the cores busy 88 % of it, so the run is bound by CPU, not by waits):
 * - the shard processes, about 91 s. About a tenth of their work is node:test's own async hook, which
 *   tracks every async resource of a test process, promises included (a profile of one shard). Their
 *   costliest files, by the shard's own CPU between one file's test events and the next's: the security
 *   battery about 12.7 s (a sixth less since its sends go without status webhooks), the campaign suite
 *   12 s, the portal suite 6.8 s (a run hashed 106 passwords with scrypt, about 11 s in all suites; the
 *   suites' own gateways now hash at a 32nd of the cost, test/support/gateway.ts), the
 *   template suite 5.3 s (about 3 s of it uploads at Meta's 16 MB and 100 MB limits), every other file
 *   under 3.5 s;
 * - the gateway processes the suites spawn, about 45 s for 35 of them: about 0.9 s of CPU each to load
 *   and build (1.4 s without Node's compile cache; it loads about 1,800 modules, TypeBox and Kysely about
 *   630 of them), the rest their work. Only gateways that are killed, stopped by a signal, or run as
 *   separate nodes on purpose are processes now: one started again after a kill runs in the shard (23
 *   processes, about 31 s);
 * - Chromium, about 37 s, the pages' own work (axe's checks in the accessibility suite about a fifth of
 *   it): the headless shell opens a page for a seventh of the CPU the whole browser does
 *   (docs/adr/0040-browser-suites-prefer-the-headless-shell.md). One browser serves every suite of a
 *   shard, kept open from its first to the shard's end (test/support/browser.ts);
 * - PostgreSQL about 16 s. Operator commands run in the shard's own process (cliInProcess in
 *   test/support/process.ts): as processes they cost 9 s of CPU and blocked their shards 40 s.
 * - The suites build 131 gateways a run: 108 in the shards, about 0.1 s of CPU each once the modules are
 *   loaded (routes, response serializers, the migrations of a new database), and 23 processes. They
 *   make 46 PostgreSQL schemas, each about 0.1 s of PostgreSQL's CPU to migrate and 0.04 s to drop.
 * - The machine's speed varies: at a slow hour a run took 146 s, the cores busy 91 % of it (shards 135 s
 *   of CPU, Chromium 46, gateway processes 40, PostgreSQL 21).
 *
 * Gateways started again in the shard, one browser a shard, the accessibility suite's one load a page, the
 * security battery without status webhooks and the campaign suite's stores side by side, against the
 * suites before them, three runs each, alternating on the same machine: 106–116 s against 116–128 s;
 * CPU of the shards, gateways, Chromium and PostgreSQL 172–192 s against 186–209 s (gateways 31–33 s
 * against 45–53 s, Chromium 34–35 s against 36–37 s).
 *
 * A shard's report is printed when the shard ends, whole, so that reports do not interleave.
 * `npm test -- test/unit/*.test.ts` runs only the files named (globs allowed).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, globSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropRunSchemas, RUN_ENV } from './support/postgres.ts';

/**
 * Seconds each of the costliest files took in its shard during a whole run (four shards on two cores,
 * `SWITCHBOARD_TEST_TIMES=times.txt npm test`): its waits lengthen a shard as much as its work does.
 * Every other file is estimated below.
 */
const COST_SECONDS: Record<string, number> = {
  'test/e2e/campaigns.test.ts': 47,
  'test/e2e/security.test.ts': 32,
  'test/e2e/campaign-crash.test.ts': 30,
  'test/e2e/crash-safety.test.ts': 28,
  'test/e2e/portal-inbox-browser.test.ts': 14,
  'test/e2e/accessibility-browser.test.ts': 13,
  'test/e2e/portal.test.ts': 13,
  'test/e2e/portal-campaigns-browser.test.ts': 12,
  'test/e2e/bad-input.property.test.ts': 9,
  'test/e2e/multi-node-dedup.test.ts': 8,
  'test/e2e/network-webhook-batches.test.ts': 8,
  'test/e2e/shared-pacing.test.ts': 8,
  'test/e2e/templates.test.ts': 8,
  'test/e2e/network-faults.test.ts': 7,
  'test/e2e/phone-browser.test.ts': 7,
  'test/e2e/simulator-restart.test.ts': 7,
  'test/e2e/inbound-crash-safety.test.ts': 6,
  'test/e2e/journey-browser.test.ts': 6,
  'test/e2e/reference-browser.test.ts': 6,
  'test/e2e/three-nodes.test.ts': 6,
  'test/e2e/webhooks-answers.test.ts': 6,
  'test/e2e/webhooks-durability.test.ts': 6,
  'test/e2e/listen-address.test.ts': 5,
  'test/e2e/portal-team-browser.test.ts': 5,
  'test/e2e/quick-start.test.ts': 5,
  'test/e2e/sandbox-join-limits.test.ts': 5,
  'test/e2e/unknown-outcome.test.ts': 5,
  'test/e2e/webhooks-isolation.test.ts': 5,
  'test/store/delivery-claims.test.ts': 5,
  'test/e2e/network-webhook.property.test.ts': 4,
  'test/e2e/portal-browser.test.ts': 4,
  'test/e2e/portal-campaigns.test.ts': 4,
  'test/e2e/portal-lockout-race.test.ts': 4,
  'test/e2e/portal-template-builder-browser.test.ts': 4,
  'test/e2e/request-timeouts.test.ts': 4,
  'test/e2e/abandoned-claims.test.ts': 3,
  'test/e2e/flows-manage.test.ts': 3,
  'test/e2e/flows.test.ts': 3,
  'test/e2e/portal-bad-input.property.test.ts': 3,
  'test/e2e/portal-webhooks-browser.test.ts': 3,
  'test/simulator/messaging-limit.test.ts': 3,
  'test/e2e/cli.test.ts': 2,
  'test/e2e/phone-templates-browser.test.ts': 2,
  'test/e2e/portal-contacts.test.ts': 2,
  'test/e2e/team-email.test.ts': 2,
  'test/e2e/typed-client.test.ts': 2,
  'test/e2e/webhooks.test.ts': 2,
  'test/simulator/state-restore.test.ts': 2,
  'test/simulator/webhook-delivery.test.ts': 2,
  'test/store/concurrent-requests.test.ts': 2,
};

/**
 * Files that measure time itself (a send pace the network must see): they run after the others, one at a
 * time, so that no other suite's load starves the processes they time.
 */
const ALONE = ['test/e2e/shared-pacing.test.ts'];

/**
 * The browser the suites drive: the first of these installed. Debian's `chromium-headless-shell` is the
 * same Chromium built as the headless shell that Playwright drives by default; opening a page costs it
 * about a seventh of the CPU `chromium` spends (docs/adr/0040-browser-suites-prefer-the-headless-shell.md).
 */
const BROWSERS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** How many shard processes run at once. */
const SHARDS = 4;

const ROOT = path.resolve(import.meta.dirname, '..');

function costOf(file: string): number {
  return COST_SECONDS[file] ?? (file.startsWith('test/e2e/') ? 1 : 0.1);
}

/** The files dealt into `count` shards of about equal cost; each shard keeps its files in name order. */
export function dealShards(files: string[], count: number): string[][] {
  const shards = Array.from({ length: count }, () => ({ files: [] as string[], cost: 0 }));
  const byCost = [...files].sort((a, b) => costOf(b) - costOf(a) || a.localeCompare(b));
  for (const file of byCost) {
    const lightest = shards.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.files.push(file);
    lightest.cost += costOf(file);
  }
  return shards.map((s) => s.files.sort()).filter((s) => s.length > 0);
}

/** Where each shard writes its files' times, when SWITCHBOARD_TEST_TIMES asks for them. */
const timesOf = (shard: number) => `${process.env.SWITCHBOARD_TEST_TIMES}.shard-${shard}`;

/** Runs `files` in one process, one after another when `shared`; resolves with its report and outcome. */
function runProcess(
  files: string[],
  shared: boolean,
  shard?: number,
  env: Record<string, string> = {},
): Promise<{ report: string; ok: boolean }> {
  // --test-force-exit: a failed test that leaves a server or a socket open must not keep its shard alive.
  // --test-timeout: a test waiting for something that never comes fails after five minutes, naming
  // itself, instead of holding the whole run.
  const args = [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    ...(process.env.SWITCHBOARD_TEST_TIMES && shard !== undefined
      ? [
          `--test-reporter=${path.join(ROOT, 'test/support/file-times-reporter.ts')}`,
          `--test-reporter-destination=${timesOf(shard)}`,
        ]
      : []),
    '--test-force-exit',
    '--test-timeout=300000',
    ...(shared ? ['--test-isolation=none'] : []),
    ...files,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ report: Buffer.concat(chunks).toString(), ok: code === 0 }));
  });
}

/** The shards' file times in one file, the longest first (test/support/file-times-reporter.ts). */
function writeFileTimes(count: number): void {
  // A shard that died before its reporter wrote has no file: the others' times are still written.
  const lines = Array.from({ length: count }, (_, i) => timesOf(i))
    .filter((file) => existsSync(file))
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  writeFileSync(String(process.env.SWITCHBOARD_TEST_TIMES), `${lines.join('\n')}\n`);
  for (let i = 0; i < count; i++) rmSync(timesOf(i), { force: true });
}

async function main(): Promise<void> {
  const extra = process.argv.slice(2);
  const patterns = extra.length ? extra : ['test/**/*.test.ts'];
  const files = [...new Set(patterns.flatMap((p) => globSync(p, { cwd: ROOT })))].sort();
  const browser = BROWSERS.find((p) => existsSync(p));
  if (!browser)
    process.stdout.write('note: chromium is not installed; browser suites (if any) skip themselves\n');
  else if (browser !== BROWSERS[0])
    process.stdout.write(
      `note: browser suites drive ${browser}; apt-get install -y chromium-headless-shell runs them faster\n`,
    );

  // The test processes inherit this environment, and the gateways and CLIs they spawn inherit theirs.
  process.env.SWITCHBOARD_CHROMIUM = browser ?? '';
  process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), 'switchboard-test-compile-cache');
  // Screenshots of an ordinary run go to one folder, removed at the end (test/support/screenshots.ts).
  const screenshots = mkdtempSync(path.join(tmpdir(), 'switchboard-screenshots-'));
  process.env.SWITCHBOARD_SCREENSHOT_DIR = screenshots;
  // One Chromium per shard, kept from its first browser suite to the shard's end (test/support/browser.ts).
  process.env.SWITCHBOARD_BROWSER_LINGER_MS = String(60 * 60_000);
  // PostgreSQL schemas are dropped once their files are done (test/support/postgres.ts says why): a
  // shard's when it ends, while the others still run, so that their DDL is not left all to the end.
  const runId = randomBytes(4).toString('hex');
  process.env[RUN_ENV] = runId;
  const drops: Promise<void>[] = [];

  const alone = new Set(ALONE);
  const shards = dealShards(
    files.filter((f) => !alone.has(f)),
    SHARDS,
  );
  let ok = true;
  const print = (result: { report: string; ok: boolean }) => {
    process.stdout.write(result.report);
    ok &&= result.ok;
  };
  const started = performance.now();
  const took: string[] = [];
  await Promise.all(
    shards.map(async (shard, i) => {
      // Its schemas are named after the run and the shard, and dropped by that name when it ends.
      const shardRun = `${runId}_${i}`;
      print(await runProcess(shard, true, i, { [RUN_ENV]: shardRun }));
      took.push(
        `shard ${i + 1}: ${((performance.now() - started) / 1000).toFixed(0)} s, ${shard.length} files`,
      );
      const dropping = dropRunSchemas(shardRun);
      // Awaited below, with the others; handled now, so that a failure meanwhile does not end the run.
      dropping.catch(() => undefined);
      drops.push(dropping);
    }),
  );
  // How long each shard ran, for keeping COST_SECONDS true.
  process.stdout.write(`${took.join('\n')}\n`);
  if (process.env.SWITCHBOARD_TEST_TIMES) writeFileTimes(shards.length);
  // The files that run alone measure time: no DDL runs beside them.
  await Promise.all(drops);
  for (const file of files.filter((f) => alone.has(f))) print(await runProcess([file], false));
  // The schemas of the files run alone, and any a shard's drop left.
  await dropRunSchemas(runId);
  rmSync(screenshots, { recursive: true, force: true });
  if (!ok) process.exitCode = 1;
}

if (import.meta.main) await main();
