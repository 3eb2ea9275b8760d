/**
 * docs/configuration.md lists every environment variable the gateway reads, and only those: the
 * variables named in the code (the config readers of src/config/, and any `process.env.X`) are compared
 * with the table rows of the document, both ways.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.join(import.meta.dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

/** Reads of one variable: `integer(env, 'X', …)`, `bool(env, 'X', …)`, `oneOf<T>(env, 'X', …)`, `words(env, 'X')`, `env.X`, `process.env.X`. */
const READS = [
  /\b(?:integer|bool|words|oneOf(?:<\w+>)?)\(\s*env,\s*'([A-Z][A-Z0-9_]+)'/g,
  /\b(?:process\.)?env\.([A-Z][A-Z0-9_]+)\b/g,
];

function variablesInCode(): Set<string> {
  const found = new Set<string>();
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    for (const read of READS) for (const match of text.matchAll(read)) found.add(match[1]!);
  }
  return found;
}

function variablesDocumented(): Set<string> {
  const text = readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  return new Set([...text.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((m) => m[1]!));
}

test('every variable the code reads is documented, and every documented one is read', () => {
  const inCode = variablesInCode();
  const documented = variablesDocumented();
  assert.ok(inCode.size > 40, `the scan found ${inCode.size} variables`);
  assert.deepEqual(
    [...inCode].filter((v) => !documented.has(v)).sort(),
    [],
    'read by the code, missing from docs/configuration.md',
  );
  assert.deepEqual([...documented].filter((v) => !inCode.has(v)).sort(), [], 'documented, read nowhere');
});
