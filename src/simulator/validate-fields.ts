/**
 * Field readers for the send validators. Each names the offending field by its JSON path in
 * `error_data.details`, as Meta does (docs/cloud-api.md §8): a missing field is 131008, a value out of its limits
 * is 131009, a value of the wrong JSON type is 100 (Meta's "Invalid parameter").
 */
import { GraphProblem, graphError } from './graph-errors.ts';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const missing = (path: string) =>
  new GraphProblem(graphError(131008, `Parameter '${path}' is required.`));

export const invalid = (path: string, why: string) =>
  new GraphProblem(graphError(131009, `Parameter '${path}' ${why}.`));

export const wrongType = (path: string, expected: string) =>
  new GraphProblem(graphError(100, `Parameter '${path}' must be ${expected}.`));

/**
 * Refuses a key the object does not have on the Cloud API, as Graph does (`(#100) Unexpected key
 * "previewUrl" on param "text"`): a misspelt or camel-cased key is an error there, not a no-op.
 */
export function onlyKeys(value: Json, path: string, allowed: ReadonlySet<string>): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key))
      throw new GraphProblem(graphError(100, `Unexpected key "${key}" on param "${path}".`));
  }
}

export const at = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/** Meta counts characters, not UTF-16 units: an emoji is one character towards a limit. */
export const charCount = (s: string) => [...s].length;

interface StringRule {
  min?: number;
  max: number;
  required?: boolean;
}

export function readString(parent: Json, key: string, path: string, rule: StringRule): string | undefined {
  const field = at(path, key);
  const value = parent[key];
  if (value === undefined || value === null) {
    if (rule.required ?? true) throw missing(field);
    return undefined;
  }
  if (typeof value !== 'string') throw wrongType(field, 'a string');
  const length = charCount(value);
  const min = rule.min ?? 1;
  if (length < min)
    throw invalid(field, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
  if (length > rule.max) throw invalid(field, `must be at most ${rule.max} characters (got ${length})`);
  return value;
}

export function readObject(parent: Json, key: string, path: string, required = true): Json | undefined {
  const field = at(path, key);
  const value = parent[key];
  if (value === undefined || value === null) {
    if (required) throw missing(field);
    return undefined;
  }
  if (!isObject(value)) throw wrongType(field, 'an object');
  return value;
}

export function readArray(parent: Json, key: string, path: string): unknown[] {
  const field = at(path, key);
  const value = parent[key];
  if (value === undefined || value === null) throw missing(field);
  if (!Array.isArray(value)) throw wrongType(field, 'an array');
  return value;
}

export function asObject(value: unknown, path: string): Json {
  if (!isObject(value)) throw wrongType(path, 'an object');
  return value;
}

/** Refuses the first value that repeats an earlier one, naming both positions. */
export function requireUnique(values: { value: string; path: string }[]): void {
  const seen = new Map<string, string>();
  for (const { value, path } of values) {
    const earlier = seen.get(value);
    if (earlier !== undefined)
      throw invalid(path, `repeats ${earlier}; it must be unique within the message`);
    seen.set(value, path);
  }
}

/** Media objects (docs/cloud-api.md §1.3): exactly one of `id` (uploaded media) or `link` (public https URL). */
export function checkMediaSource(media: Json, path: string): void {
  const hasId = media.id !== undefined && media.id !== null;
  const hasLink = media.link !== undefined && media.link !== null;
  if (!hasId && !hasLink) throw missing(`${path}.id or ${path}.link`);
  if (hasId && hasLink) throw invalid(path, 'must have exactly one of id or link, not both');
  if (hasId) readString(media, 'id', path, { max: 256 });
  // Meta fetches a media link over HTTP or HTTPS (docs/cloud-api.md §1).
  if (hasLink) readWebUrl(media, 'link', path);
}

/** An absolute http(s) URL; a link or button the phone opens, which Meta takes in either scheme. */
export function readWebUrl(parent: Json, key: string, path: string): string {
  const link = readString(parent, key, path, { max: 2048 })!;
  let url: URL | undefined;
  try {
    url = new URL(link);
  } catch {
    url = undefined;
  }
  if ((url?.protocol !== 'https:' && url?.protocol !== 'http:') || !url.hostname)
    throw invalid(at(path, key), 'must be an absolute http or https URL');
  return link;
}
