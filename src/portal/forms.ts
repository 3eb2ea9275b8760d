/**
 * Reading submitted forms and query strings. A field may arrive missing, repeated (an array) or as
 * something else entirely when a client sends JSON: each reader returns plain strings, bounded in length.
 */
import { GatewayError } from '../domain/errors.ts';

/** One named value of a parsed form or query, whatever the client sent; undefined without one. */
const submitted = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null ? Reflect.get(source, name) : undefined;

/** One text field: the first value if repeated, '' if missing. Longer than `max` is a 400 naming it. */
/**
 * The most a value of a form field with a rule of its own may hold when it is read: the body's own limit
 * bounds it already. Its form then checks the rule and says what is wrong next to the field, with the form
 * kept, instead of a page that loses it.
 */
export const FORM_VALUE_MAX = 256 * 1024;

export function field(source: unknown, name: string, max = 1000): string {
  const raw = submitted(source, name);
  const value = Array.isArray(raw) ? raw[0] : raw;
  // A browser sends a text area's line breaks as CRLF; what is stored and sent has the one line break, LF.
  const text = typeof value === 'string' ? value.replace(/\r\n?/g, '\n') : '';
  if (text.length > max) {
    throw new GatewayError('invalid_request', `\`${name}\` may be at most ${max} characters`, {
      field: name,
    });
  }
  return text;
}

/** Every value of a repeated field (checkboxes). */
export function fieldList(source: unknown, name: string): string[] {
  const raw = submitted(source, name);
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values.filter((v): v is string => typeof v === 'string' && v.length <= 200);
}

/** A 1-based page number from the query; anything else is a 400 naming `page`. */
export function pageNumber(query: unknown): number {
  const raw = field(query, 'page', 12);
  if (raw === '') return 1;
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) {
    throw new GatewayError('invalid_request', '`page` must be a whole number from 1 to 99999', {
      field: 'page',
    });
  }
  return Number(raw);
}

/** A path parameter, bounded: longer ids name nothing, so they are not found. */
export function param(params: unknown, name: string): string {
  const value = submitted(params, name);
  return typeof value === 'string' && value.length <= 100 ? value : '';
}

/** Where to go after sign-in: a portal path only, so the parameter cannot send anyone elsewhere. */
export function safeNext(path: string): string {
  return /^\/app\/[A-Za-z0-9/_\-?=&%.]*$/.test(path) ? path : '/app/dashboard';
}
