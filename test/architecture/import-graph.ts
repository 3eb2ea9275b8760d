/**
 * The import graph of the source tree: every relative `import … from '…'`, `export … from '…'`, bare
 * `import '…'` and dynamic `import('…')` of src/**\/*.ts and src/**\/*.js, resolved to the file it names.
 * Package imports (`node:fs`, `fastify`) are not edges: the layers only order the project's own files.
 *
 * A line scan is enough for this code base: the formatter puts every static import and re-export at the
 * start of a line, and comment lines (`//`, ` *`) are skipped, so prose that shows an import is not read
 * as one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ImportEdge {
  /** The importing file, relative to the repository root, with `/` separators. */
  from: string;
  /** The imported file, resolved the same way. */
  to: string;
  /** The specifier as written. */
  specifier: string;
  /** 1-based line of the specifier. */
  line: number;
  /** `import type` / `export type`: erased at run time, but still a dependency of the design. */
  typeOnly: boolean;
}

/** A static import or re-export that starts a line and ends, maybe lines later, at `from '…'`. */
const STATIC = /^(import|export)(\s+type)?\b[^;'"]*?\bfrom\s*(['"])([^'"\n]+)\3/gm;
/** `import './x.ts'`: loaded for its effect. */
const BARE = /^import\s*(['"])([^'"\n]+)\1/gm;
/** `import('./x.ts')`, anywhere on a line. */
const DYNAMIC = /\bimport\(\s*(['"])([^'"\n]+)\1\s*\)/g;

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

function isCommentLine(source: string, index: number): boolean {
  const start = source.lastIndexOf('\n', index) + 1;
  const text = source.slice(start, index).trimStart();
  return text.startsWith('//') || text.startsWith('*') || text.startsWith('/*');
}

/** The edges of one file, given its repository-relative path and its text. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const found: Array<{ specifier: string; index: number; typeOnly: boolean }> = [];
  for (const m of source.matchAll(STATIC)) {
    found.push({ specifier: m[4]!, index: m.index + m[0].length - 1, typeOnly: m[2] !== undefined });
  }
  for (const m of source.matchAll(BARE)) found.push({ specifier: m[2]!, index: m.index, typeOnly: false });
  for (const m of source.matchAll(DYNAMIC)) {
    if (!isCommentLine(source, m.index)) found.push({ specifier: m[2]!, index: m.index, typeOnly: false });
  }
  return found
    .filter(({ specifier }) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map(({ specifier, index, typeOnly }) => ({
      from: file,
      to: path.posix.join(path.posix.dirname(file), specifier),
      specifier,
      line: lineAt(source, index),
      typeOnly,
    }))
    .sort((a, b) => a.line - b.line);
}

/** The `.ts` and `.js` files under `dir` (relative to `root`), as repository-relative paths. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
    .sort();
}

/** Every edge of every source file under `dir`. */
export function importGraph(root: string, dir = 'src'): ImportEdge[] {
  return sourceFiles(root, dir).flatMap((file) =>
    importsOf(file, readFileSync(path.join(root, file), 'utf8')),
  );
}
