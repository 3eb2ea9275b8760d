/**
 * The import boundaries of src/ (docs/adr/0019-layout-and-import-boundaries.md): no layer imports one
 * above it, every source file belongs to a layer, and the known debts of layers.ts still exist, so that
 * list only shrinks. Run alone with `npm run boundaries`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { checkBoundaries, layerOf } from './check-boundaries.ts';
import { type ImportEdge, importGraph, importsOf, sourceFiles } from './import-graph.ts';
import { KNOWN_DEBTS, LAYERS } from './layers.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const FIXTURES = path.join(import.meta.dirname, 'fixtures');

describe('import boundaries of src/', () => {
  const files = sourceFiles(ROOT, 'src');
  const edges = importGraph(ROOT);
  const report = checkBoundaries(files, edges, LAYERS, KNOWN_DEBTS);

  test('the scan sees the source tree and its imports', () => {
    assert.ok(files.length > 100, `only ${files.length} files`);
    assert.ok(files.includes('src/simulator/phone/app.js'), 'browser scripts are scanned too');
    const rootImports = edges.filter((e) => e.from.startsWith('src/app/')).map((e) => e.to);
    assert.ok(rootImports.includes('src/config/config.ts'), 'src/app/ imports the configuration');
    assert.ok(
      rootImports.some((to) => to.startsWith('src/store/')),
      'src/app/ imports the store',
    );
  });

  test('every source file belongs to a layer', () => {
    assert.deepEqual(report.unplaced, []);
  });

  test('no import goes up a layer or across to another adapter or delivery module', () => {
    assert.deepEqual(report.violations, []);
  });

  test('every known debt still exists (delete the entry of one that was fixed)', () => {
    assert.deepEqual(report.staleDebts, []);
  });

  test('every known debt is unique and explained', () => {
    const keys = KNOWN_DEBTS.map((d) => `${d.from} -> ${d.to}`);
    assert.deepEqual(keys, [...new Set(keys)]);
    for (const debt of KNOWN_DEBTS) assert.ok(debt.why.length > 10, `${debt.from} has no reason`);
  });
});

describe('the boundary check itself', () => {
  test('reports a deliberately wrong import with the file, the import and the rule', () => {
    const files = sourceFiles(FIXTURES, 'src');
    const report = checkBoundaries(files, importGraph(FIXTURES), LAYERS, []);
    assert.equal(report.violations.length, 1, report.violations.join('\n'));
    const [violation] = report.violations;
    assert.match(
      violation!,
      /^src\/lib\/row-label\.ts:5 imports '\.\.\/store\/rows\.ts' \(src\/store\/rows\.ts\)/,
    );
    assert.match(violation!, /lib may import only its own files/);
    assert.deepEqual(report.unplaced, []);
  });

  test('a known debt silences its own import only, and one no longer imported is reported stale', () => {
    const files = sourceFiles(FIXTURES, 'src');
    const edges = importGraph(FIXTURES);
    const debt = { from: 'src/lib/row-label.ts', to: 'src/store/rows.ts', why: 'fixture debt' };
    const gone = { from: 'src/lib/row-label.ts', to: 'src/store/other.ts', why: 'fixed long ago' };
    const report = checkBoundaries(files, edges, LAYERS, [debt, gone]);
    assert.deepEqual(report.violations, []);
    assert.deepEqual(report.staleDebts, ['src/lib/row-label.ts -> src/store/other.ts']);
  });

  test('a layer allowed types only may not import values', () => {
    const edge = (typeOnly: boolean): ImportEdge => ({
      from: 'src/http/server.ts',
      to: 'src/config/config.ts',
      specifier: '../config/config.ts',
      line: 3,
      typeOnly,
    });
    const files = ['src/http/server.ts', 'src/config/config.ts'];
    assert.deepEqual(checkBoundaries(files, [edge(true)], LAYERS, []).violations, []);
    const [violation] = checkBoundaries(files, [edge(false)], LAYERS, []).violations;
    assert.match(violation!, /http may import config only with import type/);
  });

  test('a file in a folder no layer claims is reported', () => {
    const report = checkBoundaries(['src/widgets/dial.ts', 'src/lib/ids.ts'], [], LAYERS, []);
    assert.deepEqual(report.unplaced, ['src/widgets/dial.ts']);
  });

  test('the composition root may import anything; each file lands in its layer', () => {
    assert.equal(layerOf('src/app/build-gateway.ts', LAYERS)?.name, 'app');
    assert.equal(layerOf('src/app/build.ts', LAYERS)?.name, 'app');
    assert.equal(layerOf('src/application.ts', LAYERS), undefined);
    assert.equal(layerOf('src/domain/ports/network.ts', LAYERS)?.name, 'domain');
    const up: ImportEdge = {
      from: 'src/main.ts',
      to: 'src/http/x.ts',
      specifier: './http/x.ts',
      line: 1,
      typeOnly: false,
    };
    assert.deepEqual(checkBoundaries([], [up], LAYERS, []).violations, []);
  });
});

describe('reading imports', () => {
  test('static, multi-line, re-exported, bare and dynamic imports are edges; packages and prose are not', () => {
    const source = [
      "import fs from 'node:fs';",
      "import type { A } from '../domain/a.ts';",
      'import {',
      '  b,',
      '  c,',
      "} from './b.ts';",
      "export { d } from '../lib/d.ts';",
      "export type { E } from './e.ts';",
      "import './side-effect.ts';",
      "// a comment showing import('../store/nope.ts') is prose",
      " * and so is import('../store/nope-either.ts') in a doc comment",
      "const late = await import('../store/late.ts');",
    ].join('\n');
    const edges = importsOf('src/events/x.ts', source);
    assert.deepEqual(
      edges.map((e) => [e.line, e.to, e.typeOnly]),
      [
        [2, 'src/domain/a.ts', true],
        [6, 'src/events/b.ts', false],
        [7, 'src/lib/d.ts', false],
        [8, 'src/events/e.ts', true],
        [9, 'src/events/side-effect.ts', false],
        [12, 'src/store/late.ts', false],
      ],
    );
  });
});
