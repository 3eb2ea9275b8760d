/**
 * Every schema the gateway gives its routes compiles. Validators are compiled at their route's first
 * request (src/http/validators-on-first-use.ts), so a schema Ajv refused would otherwise surface only as
 * the 500 of that route's first request, in production.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileWaitingValidators } from '../../src/app/http-server.ts';
import { startGateway } from '../support/gateway.ts';

test("every schema of the gateway's routes compiles", async () => {
  const t = await startGateway();
  try {
    // Throws if Ajv refuses any of them. Suites run before this one in the same process may have compiled
    // some already, through their requests.
    compileWaitingValidators();
    assert.equal(compileWaitingValidators(), 0, 'nothing is left to compile');
  } finally {
    await t.close();
  }
});
