/**
 * PostgreSQL parses and plans every unnamed statement anew. The send path repeats the same few statements
 * thousands of times a second, so each pooled connection prepares them once, by name, and then only binds
 * and executes them (docs/adr/0012): about 40 % more sends per second on the benchmark machine.
 *
 * Named are only plain data statements (select, insert, update, delete, with) that do not select or return
 * `*`: a named statement's result columns are fixed when it is prepared, so a column added by a newer
 * node's migration during a rolling upgrade would make a `*` statement fail ("cached plan must not change
 * result type"). So a statement that reads an `unnest` of its parameters names the columns it takes: a
 * `select *` there would leave it unnamed, parsed and planned on every call (the send path's batched
 * outcomes and memberships were, which cost a fifth of its throughput). Each connection names at most
 * MAX_NAMED texts; further texts run unnamed, so statements built with variable shapes (lists of
 * different lengths) cannot grow a connection's memory without bound.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

const MAX_NAMED = 200;
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
const STAR = /(\bselect\s+(distinct\s+)?|\.|\breturning\s+)\*/i;

type QueryFn = (...args: unknown[]) => unknown;

function statementName(text: string): string {
  return `sb_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
}

/** Makes the pool's connections prepare repeated data statements once each. */
export function prepareStatementsPerConnection(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    const named = new Set<string>();
    const nameable = new Map<string, string | null>();
    (client as unknown as { query: QueryFn }).query = (
      config: unknown,
      values?: unknown,
      callback?: unknown,
    ) => {
      if (typeof config !== 'string' || !Array.isArray(values)) return query(config, values, callback);
      let name = nameable.get(config);
      if (name === undefined) {
        name = DATA_STATEMENT.test(config) && !STAR.test(config) ? statementName(config) : null;
        if (nameable.size < MAX_NAMED * 4) nameable.set(config, name);
      }
      if (name === null || (!named.has(name) && named.size >= MAX_NAMED))
        return query(config, values, callback);
      named.add(name);
      return query({ name, text: config, values }, callback);
    };
  });
}
