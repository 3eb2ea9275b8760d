/**
 * Graph API error bodies as Meta returns them (docs/cloud-api.md §2.1, synchronous) and as they appear inside
 * webhooks (docs/cloud-api.md §2.2, asynchronous). Callers branch on `code`, never on the text (docs/cloud-api.md §2.3).
 */

import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

export interface GraphErrorBody {
  error: {
    message: string;
    type: string;
    code: number;
    error_subcode?: number;
    error_data?: { messaging_product: 'whatsapp'; details: string };
    /** Template and flow management errors also explain themselves to a person (docs/cloud-api.md §2.1). */
    error_user_title?: string;
    error_user_msg?: string;
    fbtrace_id: string;
  };
}

export interface GraphError {
  httpStatus: number;
  body: GraphErrorBody;
}

/** Titles as Meta words them; the `message` of a request error is `(#<code>) <title>`. */
const TITLES: Record<number, string> = {
  1: 'An unknown error has occurred.',
  368: 'Temporarily blocked for policies violations',
  100: 'Invalid parameter',
  190: 'Invalid OAuth access token - Cannot parse access token',
  2500: 'Unknown path components',
  130429: 'Rate limit hit',
  131008: 'Required parameter is missing',
  131009: 'Parameter value is not valid',
  131016: 'Service unavailable',
  131021: 'Recipient cannot be sender',
  131047: 'Re-engagement message',
  131050:
    'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
  131056: '(Business Account, Consumer Account) pair rate limit hit',
  131062: 'Business-scoped user id recipient not supported for this message',
  // Meta's code for a messaging limit reached; the simulator's wording (messaging-limits.ts).
  131064: 'Messaging limit reached',
  138006: 'No approved call permission from the recipient',
  132000: 'Number of parameters does not match the expected number of params',
  132001: 'Template name does not exist in the translation',
  132005: 'Translated text too long',
  132008: 'Template parameter value is not valid',
  132012: 'Parameter format does not match format in the created template',
  132018: 'There was an issue with the parameters in your template.',
  132015: 'Template is paused',
  132016: 'Template is disabled',
};

export const WINDOW_CLOSED_DETAILS =
  'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';

/** A template of a number whose business account may not start conversations (account-restrictions.ts). */
export const RESTRICTED_DETAILS =
  'The WhatsApp Business Account associated with the app has been restricted from business-initiated messaging for violating a platform policy.';

/** A marketing template to a user who stopped this business's marketing (marketing-stops.ts). */
export const MARKETING_STOPPED_DETAILS =
  'Message failed to send because the recipient has chosen to stop receiving marketing messages on WhatsApp from this business.';

/**
 * A template to a new user past the number's messaging limit (messaging-limits.ts). Meta documents no code
 * for it; 131064 is the one Meta code named after a messaging limit reached (docs/cloud-api.md §2.3), so a
 * receiver can tell it from every other failure (docs/simulator.md).
 */
export const MESSAGING_LIMIT_CODE = 131064;

export function messagingLimitDetails(limit: number): string {
  return `Message failed to send because this business reached its messaging limit: ${limit} unique users outside a customer service window in a moving 24 hours.`;
}

function fbtraceId(): string {
  return randomBytes(9).toString('base64url');
}

/**
 * A path the Graph does not have: Meta's 2500, its message naming the path itself, with no `error_data`
 * (that is the WhatsApp errors' own part).
 */
export function unknownPathError(path: string): GraphError {
  const message = `Unknown path components: ${path.slice(0, 200)}`;
  return {
    httpStatus: 400,
    body: { error: { message, type: 'OAuthException', code: 2500, fbtrace_id: fbtraceId() } },
  };
}

/** A request error with `error_data.details` naming the offending field, HTTP 400 unless told otherwise. */
export function graphError(code: number, details: string, httpStatus = 400): GraphError {
  return {
    httpStatus,
    body: {
      error: {
        message: `(#${code}) ${TITLES[code] ?? 'Error'}`,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details },
        fbtrace_id: fbtraceId(),
      },
    },
  };
}

/**
 * A wrong Bearer token: Meta answers 401, code 190, without `error_data`; no token at all is code 104,
 * with Meta's own sentence for it.
 */
export function invalidTokenError(presented: string | undefined): GraphError {
  const [code, message] =
    presented === undefined
      ? [104, 'An access token is required to request this resource.']
      : [190, TITLES[190]!];
  return {
    httpStatus: 401,
    body: { error: { message, type: 'OAuthException', code, fbtrace_id: fbtraceId() } },
  };
}

/**
 * An object id the Graph does not know (docs/cloud-api.md §2.1): code 100, subcode 33, `GraphMethodException`,
 * and Meta's full sentence as the message.
 */
export function unknownObjectError(method: 'get' | 'post' | 'delete', id: string): GraphError {
  return {
    httpStatus: 400,
    body: {
      error: {
        message:
          `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to ` +
          'missing permissions, or does not support this operation. Please read the Graph API documentation ' +
          'at https://developers.facebook.com/docs/graph-api',
        type: 'GraphMethodException',
        code: 100,
        error_subcode: 33,
        fbtrace_id: fbtraceId(),
      },
    },
  };
}

/** The webhook form of an error, in `statuses[].errors[]` (docs/cloud-api.md §2.2). */
export function webhookError(code: number, details: string) {
  const title = TITLES[code] ?? 'Error';
  return {
    code,
    title,
    message: title,
    error_data: { details },
    href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
  };
}

/** Thrown by the validators and caught by the route, so deep checks need no result plumbing. */
export class GraphProblem extends Error {
  readonly error: GraphError;
  constructor(error: GraphError) {
    super(error.body.error.message);
    this.error = error;
  }
}

/** Answers a Graph error with its HTTP status and Graph body. */
export function sendGraphError(reply: FastifyReply, error: GraphError) {
  return reply.code(error.httpStatus).send(error.body);
}

/** Whether a value is a Graph error to answer with (rather than a result). */
export function isGraphError(value: unknown): value is GraphError {
  return typeof value === 'object' && value !== null && 'httpStatus' in value;
}
