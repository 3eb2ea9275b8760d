/**
 * Text is stored without NUL characters and without lone surrogates (docs/contract.md, "Text").
 * PostgreSQL's `text` cannot hold U+0000 at all: a name, a message or a webhook answer carrying one made its
 * statement fail, and the request a 500, however the rest of it was. A lone surrogate cannot be written in
 * UTF-8, and each driver replaced it on its own. Both stores therefore replace each of them in a string
 * parameter (and in a list of strings) by U+FFFD, the replacement character, so the same input is stored
 * the same way on each.
 */
import type pg from 'pg';
import { storableText } from '../lib/storable-text.ts';

/** A parameter with its text made storable: a string, or a list of strings (PostgreSQL arrays). */
export function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  // Checked first: lists are parameters of hot statements (claims), and seldom hold such text.
  if (Array.isArray(value) && value.some((v) => typeof v === 'string' && storableText(v) !== v)) {
    return value.map(storableValue);
  }
  return value;
}

/** The parameters of one statement with their text made storable; the same array when none needed it. */
export function storableParameters<T>(values: readonly T[]): readonly T[] {
  let copy: T[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    const clean = storableValue(v);
    if (clean !== v) {
      copy ??= [...values];
      copy[i] = clean as T;
    }
  }
  return copy ?? values;
}

type QueryFn = (...args: unknown[]) => unknown;

/** Makes every query of the pool's connections store only storable text. */
export function storeOnlyStorableText(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (
      config: unknown,
      values?: unknown,
      callback?: unknown,
    ) =>
      Array.isArray(values)
        ? query(config, storableParameters(values), callback)
        : query(config, values, callback);
  });
}
