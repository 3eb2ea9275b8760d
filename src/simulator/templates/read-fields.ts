/**
 * Field readers for template create and edit bodies. Unlike the send validators (validate-fields.ts),
 * every refusal here is a template management error: code 100, with a 2388xxx subcode where Meta has one
 * (docs/cloud-api.md §2.3), naming the field in `error_data.details` and `error_user_msg`.
 */
import { charCount, isObject, type Json } from '../validate-fields.ts';
import { invalidField, SUBCODE } from './errors.ts';

/** A required non-blank string of at most `max` characters; past the limit is subcode 2388040. */
export function requireText(parent: Json, key: string, field: string, max: number): string {
  const value = parent[key];
  if (value === undefined || value === null) throw invalidField(field, 'is required');
  if (typeof value !== 'string') throw invalidField(field, 'must be a string');
  if (value.trim() === '') throw invalidField(field, 'must not be empty');
  const length = charCount(value);
  if (length > max) {
    throw invalidField(field, `must be at most ${max} characters (got ${length})`, SUBCODE.charLimit);
  }
  return value;
}

export function requireObject(value: unknown, field: string): Json {
  if (!isObject(value)) throw invalidField(field, 'must be an object');
  return value;
}

export function requireArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(field, 'must be an array');
  return value;
}

/** One of `allowed`, case-insensitively (Meta accepts `body` as well as `BODY`); answered upper case. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], field: string): T {
  const upper = typeof value === 'string' ? value.toUpperCase() : undefined;
  if (upper === undefined || !(allowed as readonly string[]).includes(upper)) {
    throw invalidField(field, `must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return upper as T;
}
