/**
 * `npm run client:generate`: regenerates the typed client of clients/typescript/ from the document a
 * gateway serves. It writes the document beside the client (clients/typescript/openapi.json, which a test
 * keeps equal to the served one) and the types generated from it by openapi-typescript
 * (clients/typescript/src/schema.d.ts). The generator lives in the client's own package, because it needs
 * the TypeScript compiler's JavaScript API, which the TypeScript the gateway is checked with does not have.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { servedOpenApi } from './served-openapi.ts';

const CLIENT = path.resolve(import.meta.dirname, '..', 'clients', 'typescript');

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: CLIENT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const document = `${JSON.stringify(JSON.parse(await servedOpenApi()), null, 2)}\n`;
writeFileSync(path.join(CLIENT, 'openapi.json'), document);
if (!existsSync(path.join(CLIENT, 'node_modules', 'openapi-typescript'))) {
  run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
}
run(process.execPath, [
  path.join(CLIENT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
  'openapi.json',
  '--output',
  'src/schema.d.ts',
]);
