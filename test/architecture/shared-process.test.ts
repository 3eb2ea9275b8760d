/**
 * `npm test` runs many suites in one process, one after another (test/run.ts). That is safe only while no
 * suite changes what the process shares: its environment, working directory, exit code, process-wide
 * handlers, or the hooks of its root test. This test reads every suite and support file for such a change,
 * checks on examples that it would see one, and checks that the shards of a run hold every file exactly
 * once.
 */
import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { dealShards } from '../run.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** What would leak from one suite into the next in a shared process. */
const PROCESS_WIDE = [
  {
    rule: 'assigns an environment variable',
    pattern: /process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=)/,
  },
  { rule: 'deletes an environment variable', pattern: /delete\s+process\.env/ },
  { rule: 'changes the working directory', pattern: /process\.chdir\(/ },
  { rule: 'sets the exit code', pattern: /process\.exitCode\s*=/ },
  { rule: 'adds a process-wide handler', pattern: /process\.(on|once|addListener|prependListener)\(/ },
  // Outside any describe, such a hook belongs to the process's root test: it runs around every test of
  // every suite after it in the shard (a mocked clock there stopped every later suite's timers).
  { rule: 'adds a hook to every later test', pattern: /^(beforeEach|afterEach)\(/m },
];

function problemsOf(source: string): string[] {
  return PROCESS_WIDE.filter(({ pattern }) => pattern.test(source)).map(({ rule }) => rule);
}

describe('suites that share a process', () => {
  test('the rules see each kind of change and leave reads alone', () => {
    assert.deepEqual(problemsOf('process.env.PORT = "0";'), ['assigns an environment variable']);
    assert.deepEqual(problemsOf("process.env['X'] ??= 'y';"), ['assigns an environment variable']);
    assert.deepEqual(problemsOf('delete process.env.X;'), ['deletes an environment variable']);
    assert.deepEqual(problemsOf("process.chdir('/');"), ['changes the working directory']);
    assert.deepEqual(problemsOf('process.exitCode = 1;'), ['sets the exit code']);
    assert.deepEqual(problemsOf("process.on('exit', f);"), ['adds a process-wide handler']);
    assert.deepEqual(problemsOf('beforeEach(() => mock.timers.enable());'), [
      'adds a hook to every later test',
    ]);
    assert.deepEqual(problemsOf("describe('s', () => {\n  afterEach(() => {});\n});"), []);
    assert.deepEqual(problemsOf('const a = process.env.PORT === "0" ? process.env.X : undefined;'), []);
  });

  test('no suite or support file changes what the process shares', () => {
    const files = globSync('test/**/*.ts', { cwd: ROOT }).filter(
      // The runner sets the run's environment before any suite starts; this file names the patterns.
      (f) => f !== 'test/run.ts' && f !== 'test/architecture/shared-process.test.ts',
    );
    assert.ok(files.length > 100, `only ${files.length} files`);
    const found = files.flatMap((file) =>
      problemsOf(readFileSync(path.join(ROOT, file), 'utf8')).map((rule) => `${file} ${rule}`),
    );
    assert.deepEqual(found, []);
  });

  test('the shards hold every file once, and the costliest files are spread over them', () => {
    const files = globSync('test/**/*.test.ts', { cwd: ROOT }).sort();
    const shards = dealShards(files, 3);
    assert.equal(shards.length, 3);
    assert.deepEqual(shards.flat().sort(), files);
    // The three costliest in test/run.ts's COST_SECONDS.
    const heavy = [
      'test/e2e/campaigns.test.ts',
      'test/e2e/campaign-crash.test.ts',
      'test/e2e/security.test.ts',
    ];
    const shardOf = (file: string) => shards.findIndex((s) => s.includes(file));
    assert.equal(new Set(heavy.map(shardOf)).size, 3, 'the three costliest files run side by side');
    assert.deepEqual(dealShards(['a.test.ts'], 3), [['a.test.ts']], 'no empty shard');
  });
});
