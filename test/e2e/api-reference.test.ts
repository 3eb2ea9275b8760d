/**
 * The API reference (src/http/api-reference/) covers the document exactly: every operation the gateway
 * serves has an entry (operationId, description, answers), every entry names an operation that exists,
 * operationIds are unique, and every operation documents a 4xx answer. Redocly's rules
 * (`npm run lint:api`) check the rest of the document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { API_REFERENCE } from '../../src/http/api-reference/index.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';

describe('the API reference', () => {
  let t: TestGateway;
  let doc: {
    paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
  };

  before(async () => {
    t = await startGateway();
    doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  test('every operation served has an entry, and every entry is an operation served', () => {
    const served = operations()
      .map((o) => o.key)
      .sort();
    assert.deepEqual(served, Object.keys(API_REFERENCE).sort());
  });

  test('operationIds are the entries’, and unique', () => {
    const ids = operations().map((o) => o.op.operationId);
    assert.equal(new Set(ids).size, ids.length);
    for (const { key, op } of operations())
      assert.equal(op.operationId, API_REFERENCE[key]?.operationId, key);
  });

  test('every /api/v1 operation documents its success, the 401 and the 429', () => {
    for (const { key, op } of operations()) {
      const statuses = Object.keys(op.responses);
      assert.ok(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${key}: a success`,
      );
      assert.ok(
        statuses.some((s) => /^4\d\d$/.test(s)),
        `${key}: a 4xx`,
      );
      if (key.includes(' /api/v1/'))
        for (const s of ['401', '429']) assert.ok(statuses.includes(s), `${key}: ${s}`);
    }
  });
});
