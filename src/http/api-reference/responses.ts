/**
 * The answers the API reference documents (docs/contract.md §2): the shapes every operation shares (the
 * envelope, the template envelope, the fixed 401, the malformed-send 400, the virtual phone's error) as
 * OpenAPI response objects, each with an example. The shapes are the ones src/http/envelope.ts produces;
 * the examples' sentences are ones the gateway really answers.
 */

type Json = Record<string, unknown>;

const TIMESTAMP = {
  type: ['string', 'null'],
  description: 'UTC, ISO 8601 with milliseconds and no zone suffix',
};
export const EXAMPLE_TIME = '2026-11-25T18:06:40.218';

/** The envelope around `data` (docs/contract.md §2); `data` is null on every failure. */
export function envelopeSchema(data: Json = {}): Json {
  return {
    type: 'object',
    required: ['timestamp', 'data', 'status', 'message', 'errors'],
    properties: {
      timestamp: TIMESTAMP,
      data: data,
      status: { type: 'string', enum: ['success', 'error'] },
      message: { type: 'string' },
      errors: { type: 'null' },
    },
  };
}

export function successBody(data: unknown, message = ''): Json {
  return { timestamp: EXAMPLE_TIME, data, status: 'success', message, errors: null };
}

/** The template operations' successes: `timestamp` null and `message` "success" (docs/contract.md §2). */
export function templateSuccessBody(data: unknown): Json {
  return { timestamp: null, data, status: 'success', message: 'success', errors: null };
}

export function failureBody(message: string): Json {
  return { timestamp: EXAMPLE_TIME, data: null, status: 'error', message, errors: null };
}

function jsonResponse(description: string, schema: Json, example: unknown): Json {
  return { description, content: { 'application/json': { schema, example } } };
}

/** What each error status means, said once for every operation. */
const MEANING: Record<number, string> = {
  400: 'The request is not valid: the message names the field and the rule. Nothing was done.',
  403: 'The number is neither the sandbox number nor one of this account’s, or the user has not joined the account’s sandbox.',
  404: 'Not found in this account (another account’s resource is not found either).',
  409: 'The resource is not in a state that allows this (for a send: the same messageId is being sent right now).',
  413: 'The body or the file is larger than allowed.',
  414: 'A path segment is longer than the gateway reads.',
  415: 'The body is not of a type this operation reads.',
  422: 'The network refused it, or the 24-hour conversation is closed; the message says why and what to do.',
  429: 'Too many requests with this API key (see Retry-After), or the network is rate limiting; nothing was done.',
  502: 'The network answered with an error of its own; the message carries its code.',
  503: 'The network is unavailable; nothing changed, retry later.',
  504: 'The network did not answer in time; check the outcome before retrying.',
};

/** The shared shapes, referenced by every answer that has them (`components` of the document). */
export const SHARED_COMPONENTS = {
  schemas: {
    ErrorEnvelope: envelopeSchema({ type: 'null' }),
    MalformedSend: {
      type: 'object',
      required: ['timestamp', 'status', 'error', 'path', 'message'],
      properties: {
        timestamp: { type: 'string' },
        status: { type: 'integer', enum: [400] },
        error: { type: 'string', enum: ['Bad Request'] },
        path: { type: 'string' },
        message: { type: 'string' },
      },
    },
    SimulatorError: {
      type: 'object',
      required: ['error'],
      properties: {
        error: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      },
    },
  },
  responses: {
    Unauthorized: jsonResponse(
      'The `apiKey` header is missing, unknown or revoked; the body is fixed, and its `status` really is `success`.',
      { $ref: '#/components/schemas/ErrorEnvelope' },
      {
        timestamp: EXAMPLE_TIME,
        data: null,
        status: 'success',
        message: 'Invalid credentials',
        errors: null,
      },
    ),
  },
};

const ref = (name: keyof typeof SHARED_COMPONENTS.schemas) => ({ $ref: `#/components/schemas/${name}` });

export function errorResponse(status: number, message: string): Json {
  const response = jsonResponse(MEANING[status] ?? 'Refused.', ref('ErrorEnvelope'), failureBody(message));
  // A 429 says when to come back, and the rate limit's state (src/http/rate-limit.ts).
  if (status === 429) response.headers = RATE_LIMIT_HEADERS;
  return response;
}

const RATE_LIMIT_HEADERS: Json = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'RateLimit-Limit': {
    description: 'Requests the key may make at once (its burst).',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left now.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the burst is whole again.', schema: { type: 'integer' } },
};

/** The fixed 401 of every /api/v1 operation (docs/contract.md §2). */
export function unauthorizedResponse(): Json {
  return { $ref: '#/components/responses/Unauthorized' };
}

/** The malformed-send 400 of the send operations: its own fixed shape, no envelope (docs/contract.md §3). */
export function malformedSendResponse(path: string, message: string): Json {
  return jsonResponse(MEANING[400] as string, ref('MalformedSend'), {
    timestamp: EXAMPLE_TIME,
    status: 400,
    error: 'Bad Request',
    path,
    message,
  });
}

/** The virtual phone's errors: `{"error": {"message"}}` naming the field (src/simulator/README.md). */
export function simulatorErrorResponse(description: string, message: string): Json {
  return jsonResponse(description, ref('SimulatorError'), { error: { message } });
}

/** A success: the route's own schema when it declares one (kept as generated), else `fallback`. */
export function successResponse(description: string, schema: Json, example: unknown): Json {
  return jsonResponse(description, schema, example);
}
