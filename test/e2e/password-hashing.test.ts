/**
 * Portal passwords (src/portal/auth/passwords.ts): a gateway hashes at scrypt's full cost unless the
 * suite that builds it gives another, and a hash says its own cost, so a hash made at one cost verifies
 * wherever it is checked.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { buildGateway } from '../../src/app/build-gateway.ts';
import { loadConfig } from '../../src/config/config.ts';
import { PASSWORD_HASH_PARAMS, passwordHashing } from '../../src/portal/auth/passwords.ts';
import { PortalClient } from '../support/portal-client.ts';

test('a gateway built without a cost of its own stores its portal passwords at N = 2^15, r = 8, p = 1', async () => {
  assert.deepEqual(PASSWORD_HASH_PARAMS, { N: 32768, r: 8, p: 1 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-passwords-'));
  const env = { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO_ACCOUNT: 'false' };
  const gateway = await buildGateway(loadConfig(env));
  try {
    const url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    await new PortalClient(url).signUp('owner@cost.example', 'correct horse battery', 'Cost Co');
    const { password_hash } = await gateway.store.db
      .selectFrom('portal_users')
      .select('password_hash')
      .where('email', '=', 'owner@cost.example')
      .executeTakeFirstOrThrow();
    assert.match(password_hash, /^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a hash verifies at the cost it was made with, whatever the cost of the checker', async () => {
  const cheap = passwordHashing({ N: 1024, r: 8, p: 1 });
  const full = passwordHashing();
  const stored = await cheap.hash('correct horse battery');
  assert.match(stored, /^scrypt\$1024\$8\$1\$/);
  assert.equal(await full.verify('correct horse battery', stored), true);
  assert.equal(await full.verify('correct horse batterx', stored), false);
  assert.equal(await full.verify('correct horse battery', 'md5$abc'), false);
  const unknown = await cheap.forUnknownUser();
  assert.equal(await cheap.verify('anything at all', unknown), false);
  assert.equal(await cheap.forUnknownUser(), unknown, 'made once');
});
