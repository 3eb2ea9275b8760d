/**
 * `npm run lint:api`: lints the API document a gateway serves on its defaults with Redocly's recommended
 * rules (redocly.yaml). Part of `npm run check`: it must pass with no error and no warning.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { servedOpenApi } from './served-openapi.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-lint-'));
let status = 1;
try {
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, await servedOpenApi());
  const cli = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
  const lint = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml')], {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  status = lint.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
