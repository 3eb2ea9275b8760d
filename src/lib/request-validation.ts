/**
 * Request-body validation settings and the one translation of schema errors into the sentences that the
 * 400 responses carry. docs/contract.md §2: every malformed request names the field and the rule it broke.
 */
import type { Options } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';

/**
 * Strict by design: no type coercion (a number sent as a string is a client bug unless a schema says
 * otherwise), no silent removal of unknown fields (they are reported, as Stripe does, so typos surface).
 */
export const ajvOptions: Options = {
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: true,
  allErrors: false,
  // Errors carry their schema, so a schema's own `x-rule` sentence can replace the generic one.
  verbose: true,
  strict: false,
};

/** `/buttons/0/title` → `buttons[0].title` (the notation the API docs use). */
export function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  let out = '';
  for (const part of parts) {
    const decoded = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(decoded) ? `[${decoded}]` : out ? `.${decoded}` : decoded;
  }
  return out || 'body';
}

function typeName(t: unknown): string {
  const names = Array.isArray(t) ? t : [t];
  return names
    .map((n) => (n === 'integer' ? 'an integer' : n === 'object' || n === 'array' ? `an ${n}` : `a ${n}`))
    .join(' or ');
}

/**
 * A schema error as Fastify hands it on; Ajv's own errors fit it. With `verbose`, each also carries the
 * schema it broke (`parentSchema`), whose `x-rule` sentence may replace the generic one.
 */
export type SchemaError = FastifySchemaValidationError & { parentSchema?: unknown };

/** The schema's own `x-rule` sentence, when it has one. */
function ruleOf(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || !('x-rule' in schema)) return undefined;
  return typeof schema['x-rule'] === 'string' ? schema['x-rule'] : undefined;
}

/**
 * The types a union takes, in words ("a string or null"), when each of its branches names one type;
 * undefined for a union of shapes, which has no such short answer.
 */
function unionTypes(schema: unknown, keyword: 'anyOf' | 'oneOf'): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const branches: unknown = (schema as Record<string, unknown>)[keyword];
  if (!Array.isArray(branches)) return undefined;
  const types = branches.map((b) =>
    typeof b === 'object' && b !== null ? (b as { type?: unknown }).type : undefined,
  );
  if (!types.every((t) => typeof t === 'string')) return undefined;
  return typeName([...new Set(types)]).replace('a null', 'null');
}

/** One human sentence for one schema error, naming the field and the rule. */
export function describeAjvError(error: SchemaError): string {
  const p = error.params;
  const rule = ruleOf(error.parentSchema);
  switch (error.keyword) {
    case 'required':
      return `\`${fieldPath(error.instancePath, String(p.missingProperty))}\` is required`;
    case 'additionalProperties':
      return `\`${fieldPath(error.instancePath, String(p.additionalProperty))}\` is not a known field`;
  }
  const field = `\`${fieldPath(error.instancePath)}\``;
  if (rule) return `${field} ${rule}`;
  switch (error.keyword) {
    case 'type':
      return `${field} must be ${typeName(p.type)}`;
    case 'minLength':
      return p.limit === 1 ? `${field} must not be empty` : `${field} must be at least ${p.limit} characters`;
    case 'maxLength':
      return `${field} must be at most ${p.limit} characters`;
    case 'minItems':
      return `${field} must have at least ${p.limit} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${field} must have at most ${p.limit} items`;
    case 'minimum':
      return `${field} must be at least ${p.limit}`;
    case 'maximum':
      return `${field} must be at most ${p.limit}`;
    case 'enum':
      return `${field} must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${field} must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return `${field} has an invalid format`;
    case 'format':
      return `${field} must be a valid ${p.format}`;
    case 'anyOf':
    case 'oneOf': {
      const types = unionTypes(error.parentSchema, error.keyword);
      return types ? `${field} must be ${types}` : `${field} has an invalid type or value`;
    }
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

/**
 * Picks the error to report when several came back: a union (`anyOf`) reports its own rule rather than the
 * failures of each branch, which would name rules the client never meant to follow.
 */
export function firstAjvMessage(errors: readonly SchemaError[]): string {
  const union = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const chosen = union ?? errors[0];
  return chosen ? describeAjvError(chosen) : 'request body is invalid';
}
