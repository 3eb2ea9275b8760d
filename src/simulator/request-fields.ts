/**
 * Reading the simulator's requests without schemas: Meta's endpoints take loose input, so their params,
 * query and body stay `unknown` and each value is looked at before it is used.
 */

/** One field of a request's params, query or body, or undefined when there is no such object. */
export function fieldOf(source: unknown, name: string): unknown {
  return typeof source === 'object' && source !== null ? Reflect.get(source, name) : undefined;
}

/** A path parameter the route declares, so always text ('' only if the route lacks it). */
export function pathParam(params: unknown, name: string): string {
  const value = fieldOf(params, name);
  return typeof value === 'string' ? value : '';
}

/** The whole query string as a record of its (text or repeated) values. */
export function queryRecord(query: unknown): Record<string, unknown> {
  return typeof query === 'object' && query !== null ? Object.fromEntries(Object.entries(query)) : {};
}
