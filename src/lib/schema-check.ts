/**
 * Checks a value against a request schema outside an HTTP route (a portal form that builds an API body),
 * with the API's own settings and sentences (request-validation.ts): the same body is refused with the same
 * words wherever it comes from. Each schema is compiled once.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { ajvOptions, firstAjvMessage, type SchemaError } from './request-validation.ts';

const ajv = new Ajv(ajvOptions);
const compiled = new WeakMap<object, ValidateFunction>();

/** Null when `value` fits `schema`; else one sentence naming the field and the rule. */
export function schemaProblem(schema: object, value: unknown): string | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return null;
  return firstAjvMessage((validate.errors ?? []) as SchemaError[]);
}
