/**
 * Queries compiled once. Building and compiling a Kysely query costs more than running a simple indexed
 * statement on SQLite, and the send path repeats the same few queries: each of those is built once per
 * dialect, with markers in place of its arguments, and later runs as the same SQL with the markers
 * replaced. The SQL text stays the same, so the SQLite driver also reuses its prepared statement.
 *
 * Only for queries whose shape does not depend on their arguments (no lists, no optional columns).
 */
import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

const MARKER = '\u0000sb-arg:';

interface Template<R> {
  compiled: CompiledQuery<R>;
  /** Per parameter of the compiled query: the index of the argument it takes, or -1 for a constant. */
  slots: number[];
}

export function prepare<DB, Args extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<R>,
  arity: Args['length'],
): (executor: Kysely<DB>, ...args: Args) => Promise<QueryResult<R>> {
  const compiled = compiledOnce(build, arity);
  return (executor, ...args) => executor.executeQuery<R>(compiled(executor, ...args));
}

/** The query compiled once per dialect, with `args` in place: for statements run without Kysely. */
export function compiledOnce<DB, Args extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<R>,
  arity: Args['length'],
): (executor: Kysely<DB>, ...args: Args) => CompiledQuery<R> {
  // One template per dialect (SQLite and PostgreSQL differ in placeholders and quoting).
  const templates = new Map<unknown, Template<R>>();
  return (executor, ...args) => {
    const dialect = executor.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const markers = Array.from({ length: arity }, (_, i) => `${MARKER}${i}`) as Args;
      const compiled = build(executor, ...markers).compile();
      const slots = compiled.parameters.map((p) =>
        typeof p === 'string' && p.startsWith(MARKER) ? Number(p.slice(MARKER.length)) : -1,
      );
      template = { compiled, slots };
      templates.set(dialect, template);
    }
    const { compiled, slots } = template;
    const parameters = slots.map((slot, i) => (slot < 0 ? compiled.parameters[i] : args[slot]));
    return { ...compiled, parameters };
  };
}
