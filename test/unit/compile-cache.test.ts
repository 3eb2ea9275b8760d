/**
 * The compile cache is named to Node before the entry file loads (docs/adr/0041-compile-cache-before-the-
 * entry-file.md): `npm start` and `npm run cli` set NODE_COMPILE_CACHE to the folder src/lib/compile-cache.ts
 * uses, and a process whose sources are all in the cache never loads Node's type stripper.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { COMPILE_CACHE_DIR } from '../../src/lib/compile-cache.ts';
import { npmScript } from '../support/process.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('npm start and npm run cli name the install’s compile cache before Node starts', () => {
  for (const name of ['start', 'cli']) {
    const { env, words } = npmScript(name);
    assert.equal(words[0], 'node', name);
    assert.ok(env.NODE_COMPILE_CACHE, `${name} sets no NODE_COMPILE_CACHE default`);
    // npm runs its scripts in the install's folder.
    assert.equal(path.resolve(ROOT, env.NODE_COMPILE_CACHE), COMPILE_CACHE_DIR, name);
  }
});

test('with every source in the cache, the CLI runs without loading the type stripper', () => {
  const cache = mkdtempSync(path.join(tmpdir(), 'switchboard-compile-cache-'));
  const probe = path.join(ROOT, 'test/support/stripper-probe.mjs');
  const run = () => {
    const r = spawnSync(process.execPath, ['--import', probe, 'src/cli/main.ts', '--help'], {
      cwd: ROOT,
      env: { ...process.env, NODE_COMPILE_CACHE: cache },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return /stripper:(true|false)/.exec(r.stderr)?.[1];
  };
  try {
    assert.equal(run(), 'true', 'the first run strips the types of every file, the entry included');
    assert.equal(run(), 'false', 'the second finds them all compiled');
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
