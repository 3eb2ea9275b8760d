/**
 * The shape every free-form send operation shares (operations 1–8 of docs/contract.md): a request schema,
 * the rules a schema cannot say, and the Cloud API body it becomes (docs/cloud-api.md §1.3).
 */
import { type TSchema, Type } from 'typebox';
import type { CloudMessage } from '../ports/network.ts';

export type RuleResult<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

/**
 * What a template send needs of the APPROVED template beyond its parameters: the name the network knows it
 * under, its category (an authentication code also fills the OTP button), the types of a carousel
 * card's buttons in order (a card button's parameter is a quick reply's payload or a URL's suffix), and
 * the network's ids of the uploads its headers name.
 */
export interface ResolvedTemplate {
  networkName: string;
  category?: string;
  cardButtons?: string[];
  /** The network's media id of each upload (`upl_…`) the send's headers name. */
  media?: Record<string, string>;
}

export interface SendContext {
  flow?: { networkFlowId: string; mode: 'published' | 'draft' };
  flowToken?: string;
  /** The APPROVED template a template send uses, by the name the network knows it under. */
  template?: ResolvedTemplate;
  /** The network id of the message `replyTo` names (a reply quotes it; a reaction is put on it). */
  replyTo?: string;
  /** The network's id of the upload a media send names by `mediaId`. */
  media?: { networkMediaId: string };
}

/** `Schema` is the body schema's own type, so the API can derive the validated body's type from it. */
export interface SendOperation<Body, Content, Schema extends TSchema = TSchema> {
  kind:
    | 'text'
    | 'media'
    | 'location'
    | 'request_location'
    | 'contact'
    | 'buttons'
    | 'list'
    | 'flow'
    | 'template'
    | 'reaction'
    | 'cta_url';
  summary: string;
  /** The whole body, common fields included; unknown fields are refused. */
  bodySchema: Schema;
  /** Cross-field rules the schema cannot express; the normalized content, without messageId/from/to. */
  normalize(body: Body): RuleResult<Content>;
  toCloud(content: Content, context: SendContext): CloudMessage;
}

export interface CommonFields {
  messageId: string;
  from: string;
  to: string;
  replyTo?: string;
}

/**
 * The fields every send carries (docs/contract.md §3): `messageId` 1–128 characters. `from` and `to` are only
 * bounded here; whether they are phone numbers is the send pipeline's check (normalizePhone), which can say
 * so in a sentence of its own. 32 characters leave room for any E.164 number written with spaces and dashes.
 */
export const commonFields = {
  messageId: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'client-chosen id, unique per account; repeating it replays the first result',
  }),
  from: Type.String({
    minLength: 1,
    maxLength: 32,
    description: 'the sandbox number or your business number',
  }),
  to: Type.String({
    minLength: 1,
    maxLength: 160,
    description:
      'the recipient: a phone number with country code, or a business-scoped user id (`userId` of a message.received event)',
  }),
  replyTo: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      description:
        'the message this one answers, quoted above it on the phone: the `messageId` of a message you sent, or the network id (`wamid.…`) of one you received',
    }),
  ),
};

/**
 * A string of `min`–`max` characters. Characters are Unicode code points, not UTF-16 units: that is JSON
 * Schema's definition of string length, what Ajv enforces and what the OpenAPI document promises, so an
 * emoji counts as one character, as a person counts it. Meta does not document its unit; code points are
 * the reading under which no text a person would call short enough is refused here.
 */
export const text = (min: number, max: number, options: { description?: string } = {}) =>
  Type.String({ minLength: min, maxLength: max, ...options });

export const ok = <T>(value: T): RuleResult<T> => ({ ok: true, value });
export const refuse = (field: string, message: string): RuleResult<never> => ({ ok: false, field, message });

/**
 * Two spellings of one field (the contract's table and its sample disagree, docs/contract.md §3): either may be sent; both
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
  if (value === undefined)
    return refuse(first.name, `\`${first.name}\` (or \`${second.name}\`, the same field) is required`);
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
