/**
 * Completes the OpenAPI document @fastify/swagger generates from the route schemas into the API reference
 * (docs/api-reference.md): every operation gets its operationId, a description, every answer it can give
 * with its shape and an example, and its request example; the document gets its tags, licence and
 * server. The routes keep what validates and serializes (request schemas, success schemas); what only
 * documents lives here, per resource, so documenting never changes a byte an operation answers.
 */
import { CAMPAIGN_REFERENCE } from './campaigns.ts';
import { CONTACT_REFERENCE } from './contacts.ts';
import { MANAGE_REFERENCE } from './manage.ts';
import { MESSAGE_REFERENCE } from './messages.ts';
import type { OperationReference, ReferenceTable } from './operation-reference.ts';
import {
  envelopeSchema,
  errorResponse,
  malformedSendResponse,
  SHARED_COMPONENTS,
  simulatorErrorResponse,
  successResponse,
  unauthorizedResponse,
} from './responses.ts';
import { SIMULATOR_REFERENCE } from './simulator.ts';
import { WEBHOOK_REFERENCE } from './webhooks.ts';

export const API_REFERENCE: ReferenceTable = {
  ...MESSAGE_REFERENCE,
  ...MANAGE_REFERENCE,
  ...WEBHOOK_REFERENCE,
  ...CONTACT_REFERENCE,
  ...CAMPAIGN_REFERENCE,
  ...SIMULATOR_REFERENCE,
};

type Json = Record<string, unknown>;

/** The parts of the generated document this module reads and completes. */
interface MediaType {
  schema?: Json;
  example?: unknown;
}
interface Operation {
  operationId?: string;
  description?: string;
  requestBody?: { content?: Record<string, MediaType> } | Json;
  responses?: Record<string, unknown>;
  parameters?: Json[];
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
  info?: Json;
  components?: { schemas?: Json; responses?: Json };
}

const jsonOf = (body: unknown) =>
  (body as { content?: Record<string, MediaType> } | undefined)?.content?.['application/json'];

export const TAGS = [
  {
    name: 'messages',
    description: 'Send messages, read their status, mark received messages read (docs/sending.md).',
  },
  {
    name: 'templates',
    description: 'Message templates: create, review, list, update, delete (docs/templates.md).',
  },
  { name: 'media', description: 'Files uploaded to send by id (docs/sending.md).' },
  { name: 'flows', description: 'WhatsApp Flows: create, preview, publish, deprecate (docs/flows.md).' },
  {
    name: 'webhooks',
    description: "Endpoints that receive this account's events, and their deliveries (docs/webhooks.md).",
  },
  {
    name: 'contacts',
    description: 'The people an account messages: upsert, list by tag, change (docs/contacts.md).',
  },
  {
    name: 'campaigns',
    description:
      "Broadcasts of a template to an audience, paced within the number's tier, each recipient sent to once (docs/campaigns.md).",
  },
  {
    name: 'simulator',
    description:
      'Simulator only: the virtual phones of the built-in WhatsApp simulator, what a user does on the simulated network (docs/simulator.md). No API key; a private simulator asks for its own token.',
  },
];

const RATE_LIMITED =
  'too many requests with this API key: the limit is 100 requests per second, with bursts of up to 200; retry after 1 s';
const UNSUPPORTED_TYPE = 'Content-Type application/xml is not supported; send application/json';
const TOO_LARGE = 'the request body is larger than the 262144 bytes allowed';
const SEGMENT_TOO_LONG = 'a path segment of the URL is too long';

/** The local server in the document is this gateway itself, wherever it is reached from. */
export function documentedServer(publicUrl: string): { url: string; description: string } {
  const host = new URL(publicUrl).hostname;
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  return local
    ? { url: '/', description: 'This gateway (set PUBLIC_URL to name its public address)' }
    : { url: publicUrl, description: 'This gateway' };
}

function contentOf(path: string, example: unknown): Json | undefined {
  // The file, served with its own type (a download of any other, src/lib/media-serving.ts).
  if (path.endsWith('/media/{id}')) return { '*/*': { schema: { type: 'string', format: 'binary' } } };
  if (path.endsWith('/campaigns/{id}/recipients'))
    return {
      'application/json': { schema: envelopeSchema({}), example },
      'text/csv': {
        schema: { type: 'string' },
        example: 'seq,to,contactId,line,status,reason,replied,messageId,sentAt\n',
      },
    };
  if (path.endsWith('/events')) return { 'text/event-stream': { schema: { type: 'string' }, example } };
  return undefined;
}

function successOf(key: string, ref: OperationReference, generated: unknown): Json {
  const path = key.slice(key.indexOf(' ') + 1);
  const special = contentOf(path, ref.success.example);
  if (special) return { description: ref.success.description, content: special };
  const schema = jsonOf(generated)?.schema ?? defaultSuccessSchema(key);
  return successResponse(ref.success.description, schema, ref.success.example);
}

/** The envelope, except for the answers that are not one (the flow page, the virtual phones). */
function defaultSuccessSchema(key: string): Json {
  if (
    key.startsWith('GET /simulator/') ||
    key.startsWith('POST /simulator/') ||
    key.startsWith('PUT /simulator/') ||
    key === 'GET /api/v1/msg/manage/flow'
  )
    return { type: 'object' };
  return envelopeSchema({});
}

const SIMULATOR_REFUSAL: Record<number, string> = {
  400: 'Refused: the message names the field.',
  404: 'Not on this phone (or forgotten).',
  429: 'Too many live streams are open.',
};

function errorOf(path: string, ref: OperationReference, status: number, message: string): Json {
  if (ref.refusals === 'simulator')
    return simulatorErrorResponse(SIMULATOR_REFUSAL[status] ?? 'Refused.', message);
  if (status === 400 && ref.refusals === 'send') return malformedSendResponse(path, message);
  return errorResponse(status, message);
}

function responsesOf(key: string, ref: OperationReference, op: Operation): Json {
  const path = key.slice(key.indexOf(' ') + 1);
  const responses: Json = { [ref.success.status]: successOf(key, ref, op.responses?.['200']) };
  if (ref.alsoSuccess) {
    const { status, description, example } = ref.alsoSuccess;
    responses[status] = successResponse(description, defaultSuccessSchema(key), example);
  }
  const errors: Record<number, string> = Object.fromEntries(
    Object.entries(ref.errors).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  if (path.startsWith('/api/v1/')) {
    errors[429] ??= RATE_LIMITED;
    // Every JSON body is bounded (docs/contract.md §2), and every path segment is read up to a length.
    if (jsonOf(op.requestBody)) {
      errors[415] ??= UNSUPPORTED_TYPE;
      errors[413] ??= TOO_LARGE;
    }
    if (path.includes('{')) errors[414] ??= SEGMENT_TOO_LONG;
  }
  for (const status of Object.keys(errors)
    .map(Number)
    .sort((a, b) => a - b)) {
    if (status === 401) continue;
    responses[status] = errorOf(path, ref, status, errors[status] as string);
    if (status === 400 && path.startsWith('/api/v1/')) responses[401] = unauthorizedResponse();
  }
  if (path.startsWith('/api/v1/') && !responses[401]) responses[401] = unauthorizedResponse();
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Completes one operation in place from its reference entry. */
function completeOperation(key: string, op: Operation, ref: OperationReference): void {
  op.operationId = ref.operationId;
  op.description = op.description ? `${ref.description}\n\n${op.description}` : ref.description;
  op.responses = responsesOf(key, ref, op);
  const json = jsonOf(op.requestBody);
  if (json && ref.requestExample !== undefined) json.example = ref.requestExample;
  // A route without a body schema (the simulator's) still takes the JSON object its example shows.
  if (!op.requestBody && ref.requestExample !== undefined)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { type: 'object' }, example: ref.requestExample } },
    };
  if (ref.multipart) op.requestBody = multipartBody(ref.multipart);
  for (const q of ref.query ?? []) {
    op.parameters ??= [];
    op.parameters.push({
      name: q.name,
      in: 'query',
      required: q.required,
      description: q.description,
      schema: { type: 'string' },
    });
  }
}

/** A multipart/form-data body: text parts, and files (any bytes, so no type: clients send a Blob). */
function multipartBody(multipart: NonNullable<OperationReference['multipart']>): Json {
  const properties = Object.fromEntries(
    Object.entries(multipart.parts).map(([name, part]) => [
      name,
      part.file
        ? { description: part.description, contentMediaType: 'application/octet-stream' }
        : { type: 'string', description: part.description },
    ]),
  );
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          ...(multipart.required.length ? { required: multipart.required } : {}),
          properties,
        },
      },
    },
  };
}

/** The `transformObject` of @fastify/swagger: the generated document, completed. */
export function completeDocument<D extends object>(generated: D, publicUrl: string): D {
  const document = generated as OpenApiDocument;
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const key = `${method.toUpperCase()} ${path}`;
      const ref = API_REFERENCE[key];
      // An operation without an entry stays as generated; test/e2e/api-reference.test.ts fails on it.
      if (ref) completeOperation(key, op, ref);
    }
  }
  const completed: OpenApiDocument & Json = {
    ...document,
    info: {
      ...document.info,
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
    },
    servers: [documentedServer(publicUrl)],
    tags: TAGS,
    components: {
      ...document.components,
      schemas: { ...document.components?.schemas, ...SHARED_COMPONENTS.schemas },
      responses: { ...document.components?.responses, ...SHARED_COMPONENTS.responses },
    },
  };
  return completed as D;
}
