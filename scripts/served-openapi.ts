/**
 * The API document exactly as a gateway on its defaults serves it (`GET /openapi.json`), built in process
 * on a throwaway data directory: what `npm run lint:api` lints and `npm run client:generate` generates from.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGateway } from '../src/app/build-gateway.ts';
import { loadConfig } from '../src/config/config.ts';

export async function servedOpenApi(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-openapi-'));
  try {
    const gateway = await buildGateway(
      loadConfig({ DATA_DIR: dir, SEED_DEMO_ACCOUNT: 'false', LOG_LEVEL: 'silent' }),
    );
    try {
      await gateway.app.ready();
      return (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    } finally {
      await gateway.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
