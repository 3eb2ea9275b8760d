/**
 * Request data is typed by the route schemas that validate it (src/http/typed-app.ts), or read field by
 * field where no schema applies; casting `request.body/params/query` to an assumed shape, or anything to
 * `never`, would let a handler believe what no check established. This keeps src/ free of both.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');
const FORBIDDEN = [
  { rule: 'no cast of request data', pattern: /request\.(body|params|query)\)?\s+as\b/ },
  { rule: 'no cast to never', pattern: /\bas never\b/ },
];

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file))
    .map((file) => path.join(SRC, file));
}

/** `file:line: text` of every line breaking the rule. */
function offences(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        pattern.test(line) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : [],
      ),
  );
}

describe('casts in src/', () => {
  const files = sourceFiles();

  test('the scan sees the source tree', () => {
    assert.ok(files.some((f) => f.endsWith(path.join('http', 'typed-app.ts'))));
    assert.ok(files.length > 100);
  });

  test('each rule catches what it forbids and leaves prose alone', () => {
    const [requestCast, neverCast] = FORBIDDEN.map((f) => f.pattern);
    assert.ok(requestCast?.test('const { id } = request.params as { id: string };'));
    assert.ok(requestCast?.test('const q = (request.query as { from?: unknown }).from;'));
    assert.ok(!requestCast?.test('const { id } = request.params;'));
    assert.ok(neverCast?.test('rules.normalize(body as never);'));
    assert.ok(!neverCast?.test('a connection that was never made'));
  });

  for (const { rule, pattern } of FORBIDDEN) {
    test(rule, () => {
      assert.deepEqual(offences(files, pattern), []);
    });
  }
});
