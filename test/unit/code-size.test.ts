/**
 * Every source file stays short enough to read (at most 400 lines) and every function short enough to
 * hold in mind (a body of at most 60 lines). The scan is test/support/code-size.ts. No file is exempt.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { functionSizes, lineCount } from '../support/code-size.ts';

const SRC = path.join(import.meta.dirname, '..', '..', 'src');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;

function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file))
    .map((file) => file.split(path.sep).join('/'));
}

/** `file: what is too long` for every file or function over its limit. */
function oversized(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    const lines = lineCount(text);
    const fileProblem = lines > MAX_FILE_LINES ? [`${file}: ${lines} lines`] : [];
    const functionProblems = functionSizes(text)
      .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
      .map((fn) => `${file}:${fn.line}: a function of ${fn.lines} lines`);
    return [...fileProblem, ...functionProblems];
  });
}

function body(lines: number): string {
  return Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
}

describe('code size in src/', () => {
  test('the scan finds each kind of function and measures its body', () => {
    const src = [
      `export async function declared(a: string): Promise<{ a: string }> {\n${body(70)}\n}`,
      `const arrow = async (x: number) => {\n${body(61)}\n};`,
      `class C {\n  method<T>(t: T): T {\n${body(65)}\n  }\n}`,
      `const o = {\n  short() {\n    return 1;\n  },\n};`,
      `if (declared) {\n${body(90)}\n}`,
    ].join('\n');
    const sizes = functionSizes(src).map((fn) => fn.lines);
    assert.deepEqual(sizes, [70, 61, 65, 3]);
  });

  test('comments, strings, templates and regular expressions do not open functions', () => {
    const src = [
      '// f() {',
      "const s = 'g() {';",
      // A template literal with a placeholder that holds another template.
      ['const t = `h() { $', '{`i() {`} }`;'].join(''),
      'const r = /j\\(\\) \\{/;',
      `function k() {\n${body(10)}\n}`,
    ].join('\n');
    assert.deepEqual(
      functionSizes(src).map((fn) => fn.lines),
      [10],
    );
  });

  test('names that Object.prototype also has (toString, constructor) are plain tokens', () => {
    const src = [
      `function short() {\n  return (1).toString() + {}.constructor.name;\n}`,
      `function next() {\n${body(5)}\n}`,
    ].join('\n');
    assert.deepEqual(
      functionSizes(src).map((fn) => fn.lines),
      [3, 5],
    );
  });

  test('the scan sees the source tree', () => {
    const files = sourceFiles();
    assert.ok(files.includes('app/build-gateway.ts'));
    assert.ok(files.length > 100);
  });

  test('no file breaks a limit', () => {
    assert.deepEqual(oversized(sourceFiles()), []);
  });

  test('the composition root reads in one screen', () => {
    const text = readFileSync(path.join(SRC, 'app', 'build-gateway.ts'), 'utf8');
    assert.ok(functionSizes(text).every((fn) => fn.lines <= MAX_FUNCTION_LINES));
  });
});
