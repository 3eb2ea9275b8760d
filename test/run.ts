/**
 * `npm test`: every suite under test/, with Node's own runner. Suites are mostly I/O-bound (real HTTP, real
 * databases), so several files run at once even on two cores.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const extra = process.argv.slice(2);
const patterns = extra.length ? extra : ['test/**/*.test.ts'];
const browser = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!browser)
  process.stdout.write('note: chromium is not installed; browser suites (if any) skip themselves\n');

const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=4', '--test-reporter=spec', ...patterns],
  {
    stdio: 'inherit',
    env: { ...process.env, SWITCHBOARD_CHROMIUM: browser ?? '' },
  },
);
process.exit(result.status ?? 1);
