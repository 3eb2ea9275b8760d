/**
 * The shape every free-form send operation shares (operations 1–8 of the document): a request schema,
 * the rules a schema cannot say, and the Cloud API body it becomes (reference §1.3).
 */
import { type TSchema, Type } from 'typebox';
import type { CloudMessage } from '../../network/port.ts';

export type RuleResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

export interface SendContext {
  flow?: { networkFlowId: string; mode: 'published' | 'draft' };
  flowToken?: string;
}

export interface SendOperation<Body, Content> {
  kind: 'text' | 'media' | 'location' | 'request_location' | 'contact' | 'buttons' | 'list' | 'flow';
  /** Exactly as in the document. */
  path: string;
  summary: string;
  /** The whole body, common fields included; unknown fields are refused. */
  bodySchema: TSchema;
  /** Cross-field rules the schema cannot express; the normalized content, without messageId/from/to. */
  normalize(body: Body): RuleResult<Content>;
  toCloud(content: Content, context: SendContext): CloudMessage;
}

export interface CommonFields {
  messageId: string;
  from: string;
  to: string;
}

/** `messageId` 1–128 characters (decisions §3); numbers are checked for validity by the pipeline. */
export const commonFields = {
  messageId: Type.String({ minLength: 1, maxLength: 128 }),
  from: Type.String({ minLength: 1, maxLength: 32 }),
  to: Type.String({ minLength: 1, maxLength: 32 }),
};

/** A string of `min`–`max` characters (JavaScript string length, i.e. UTF-16 code units, as Meta counts). */
export const text = (min: number, max: number) => Type.String({ minLength: min, maxLength: max });

export const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
export const refuse = (field: string, message: string): RuleResult<never> => ({ ok: false, field, message });

/**
 * Two spellings of one field (the document's table and its sample disagree): either may be sent; both
 * with different values is an error, since the client's intent is unclear.
 */
export function eitherSpelling<T>(
  first: { name: string; value: T | undefined },
  second: { name: string; value: T | undefined },
): RuleResult<T> {
  if (first.value !== undefined && second.value !== undefined && first.value !== second.value) {
    return refuse(
      second.name,
      `\`${first.name}\` and \`${second.name}\` are two spellings of one field; send one, or the same value in both`,
    );
  }
  const value = first.value ?? second.value;
  if (value === undefined) return refuse(first.name, `\`${first.name}\` is required`);
  return ok(value);
}

/** The first index whose key repeats an earlier one, with that earlier index. */
export function firstDuplicate(keys: readonly string[]): { index: number; earlier: number } | undefined {
  const seen = new Map<string, number>();
  for (const [index, key] of keys.entries()) {
    const earlier = seen.get(key);
    if (earlier !== undefined) return { index, earlier };
    seen.set(key, index);
  }
  return undefined;
}
