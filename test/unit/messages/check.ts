/**
 * What a send route does with a body before the pipeline, without HTTP: the schema as Fastify runs it (the
 * gateway's Ajv options, the first error as the 400 sentence), then the operation's own rules.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { SendOperation } from '../../../src/domain/messages/send-operation.ts';
import { ajvOptions, firstAjvMessage } from '../../../src/lib/request-validation.ts';

export type Checked = { ok: true; value: any } | { ok: false; message: string; field?: string };

const ajv = new Ajv(ajvOptions);
const compiled = new WeakMap<object, ValidateFunction>();

export function check(op: SendOperation<any, any>, body: unknown): Checked {
  let validate = compiled.get(op);
  if (!validate) {
    validate = ajv.compile(op.bodySchema);
    compiled.set(op, validate);
  }
  // Validation may fill defaults in; the caller's object stays as written.
  const copy = structuredClone(body);
  if (!validate(copy)) return { ok: false, message: firstAjvMessage(validate.errors ?? []) };
  const result = op.normalize(copy);
  return result.ok ? result : { ok: false, message: result.message, field: result.field };
}

export const common = { messageId: 'm1', from: '+14155550100', to: '+254712345678' };

/** `n` characters of `c`. */
export const x = (n: number, c = 'x') => c.repeat(n);

/** The normalized content, failing the test with the refusal's message when the body is refused. */
export function accepted(op: SendOperation<any, any>, body: Record<string, unknown>): any {
  const r = check(op, { ...common, ...body });
  if (!r.ok) throw new Error(`expected acceptance, got: ${r.message}`);
  return r.value;
}

/** The refusal's message, failing the test when the body is accepted. */
export function refused(op: SendOperation<any, any>, body: unknown): string {
  const r = check(
    op,
    body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...common, ...body } : body,
  );
  if (r.ok) throw new Error(`expected refusal, got: ${JSON.stringify(r.value)}`);
  return r.message;
}
