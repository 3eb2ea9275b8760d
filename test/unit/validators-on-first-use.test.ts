/**
 * Route validators compiled at their first request (src/http/validators-on-first-use.ts): nothing is
 * compiled before a request needs it, and what is compiled answers as Ajv does. That every schema of the
 * gateway's routes compiles is test/e2e/route-schemas.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { validatorsOnFirstUse } from '../../src/http/validators-on-first-use.ts';
import { ajvOptions } from '../../src/lib/request-validation.ts';

const schema = {
  type: 'object',
  required: ['to'],
  properties: { to: { type: 'string' }, tries: { type: 'integer', default: 1 } },
};

/** Validators over Ajv, counting the compiles it was asked for. */
function counted() {
  let compiles = 0;
  const ajv = AjvCompiler();
  const lazy = validatorsOnFirstUse((external, options) => {
    const compile = ajv(external, options);
    return (route) => {
      compiles++;
      return compile(route);
    };
  });
  const compile = lazy.buildValidator({}, { customOptions: ajvOptions });
  return { lazy, compile, compiles: () => compiles };
}

describe('request validators compiled on first use', () => {
  test('nothing is compiled until the first validation, and then only once', () => {
    const { compile, compiles } = counted();
    const validate = compile({ schema, method: 'POST', url: '/x', httpPart: 'body' });
    assert.equal(compiles(), 0);
    assert.equal(validate({ to: 'a' }), true);
    assert.equal(validate({ to: 'b' }), true);
    assert.equal(compiles(), 1);
  });

  test('answers as Ajv does: its errors on the function Fastify called, defaults filled in', () => {
    const { compile } = counted();
    const validate = compile({ schema, method: 'POST', url: '/x', httpPart: 'body' });
    assert.equal(validate({ tries: 'two' }), false);
    assert.equal(validate.errors?.[0]?.keyword, 'required');
    assert.equal(validate.errors?.[0]?.params.missingProperty, 'to');
    const body: Record<string, unknown> = { to: 'a' };
    assert.equal(validate(body), true);
    assert.equal(validate.errors, null);
    assert.equal(body.tries, 1, 'the default was written into the body');
    // Fastify hands Ajv the request as the root's parent only for a validator with a schemaEnv.
    assert.ok(validate.schemaEnv);
    assert.equal(validate.schema, schema);
  });

  test('compileWaiting compiles what no request used yet, once', () => {
    const { lazy, compile, compiles } = counted();
    const used = compile({ schema, method: 'POST', url: '/a', httpPart: 'body' });
    compile({ schema: { type: 'object' }, method: 'GET', url: '/b', httpPart: 'querystring' });
    used({ to: 'a' });
    assert.equal(lazy.compileWaiting(), 1);
    assert.equal(compiles(), 2);
    assert.equal(lazy.compileWaiting(), 0);
  });
});
