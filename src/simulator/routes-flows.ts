/**
 * The simulated Flows API (docs/cloud-api.md §6.1, §6.2, §6.6): create a flow in the WABA, upload its Flow JSON
 * as an asset (multipart), read, rename, publish, deprecate, delete. Illegal transitions answer Meta's
 * flow error codes: 139001 update, 139002 publish, 139003 deprecate, 139004 delete.
 *
 * Routes on a bare flow id (`GET|POST|DELETE /{v}/{flow-id}`) are shared with phone numbers and media, so
 * they go through the graph object registry (graph-objects.ts); the others are routes of their own.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FLOW_CATEGORIES } from '../lib/flow-categories.ts';
import { normalizePhone } from '../lib/phone.ts';
import { type FlowCatalog, flowError, type SimFlow } from './flow-catalog.ts';
import { type GraphError, graphError, sendGraphError, unknownObjectError } from './graph-errors.ts';
import type { GraphObjects } from './graph-objects.ts';
import { pathParam } from './request-fields.ts';
import { graphAccessProblem, graphErrorHandler } from './routes-graph.ts';
import { isObject, type Json } from './validate-fields.ts';

export interface FlowRouteDeps {
  accessToken: string;
  flows: FlowCatalog;
  objects: GraphObjects;
}

/** Meta's limit on a Flow JSON asset (docs/cloud-api.md §6.1, per AWS's mirror). */
const FLOW_JSON_MAX_BYTES = 10 * 1024 * 1024;

const sendError = sendGraphError;

/** A simulated business number is its own WABA, whose id is its phone-number id (the number's digits). */
const isWabaId = (id: string) => /^\d+$/.test(id) && normalizePhone(id) === id;

function flowView(flow: SimFlow): Json {
  return {
    id: flow.id,
    name: flow.name,
    status: flow.status,
    categories: flow.categories,
    validation_errors: flow.validationErrors,
    ...(flow.jsonVersion ? { json_version: flow.jsonVersion } : {}),
    whatsapp_business_account: { id: flow.wabaId },
  };
}

/** `name` and `categories` as Meta checks them on create and on metadata updates. */
function metadataProblem(body: Json, required: boolean): GraphError | undefined {
  if (body.name !== undefined || required) {
    if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 200) {
      return graphError(100, "Parameter 'name' must be a string of 1 to 200 characters.");
    }
  }
  if (body.categories !== undefined || required) {
    const categories = body.categories;
    if (!Array.isArray(categories) || categories.length === 0) {
      return graphError(100, "Parameter 'categories' must be a non-empty array of flow categories.");
    }
    const unknown = categories.find((c) => !(FLOW_CATEGORIES as readonly unknown[]).includes(c));
    if (unknown !== undefined) {
      return graphError(
        100,
        `Parameter 'categories' holds ${JSON.stringify(unknown)}; allowed: ${FLOW_CATEGORIES.join(', ')}.`,
      );
    }
  }
  return undefined;
}

/** Version, token and flow id, in Graph's order; the flow or the error to answer. */
function flowOf(
  deps: FlowRouteDeps,
  request: FastifyRequest,
  method: 'get' | 'post' | 'delete',
): SimFlow | GraphError {
  const problem = graphAccessProblem(request, deps.accessToken);
  if (problem) return problem;
  const flowId = pathParam(request.params, 'flowId');
  return deps.flows.get(flowId) ?? unknownObjectError(method, flowId);
}
const isError = (v: SimFlow | GraphError): v is GraphError => 'httpStatus' in v;

/** The flow as a Graph object: read, change its metadata, delete it (src/simulator/graph-objects.ts). */
function registerFlowObject(deps: FlowRouteDeps): void {
  deps.objects.register({
    name: 'flow',
    owns: (id) => deps.flows.get(id) !== undefined,
    handlers: {
      get: (id) => flowView(deps.flows.get(id)!),
      post(id, request, reply) {
        const flow = deps.flows.get(id)!;
        const body = isObject(request.body) ? request.body : {};
        const problem = metadataProblem(body, false);
        if (problem) return sendError(reply, problem);
        if (flow.status === 'DEPRECATED') {
          return sendError(
            reply,
            flowError(139001, `Flow ${id} is deprecated; it can no longer be changed.`),
          );
        }
        if (typeof body.name === 'string') flow.name = body.name;
        if (Array.isArray(body.categories)) flow.categories = body.categories as string[];
        deps.flows.save(flow);
        return { success: true };
      },
      delete(id, _request, reply) {
        const flow = deps.flows.get(id)!;
        if (flow.status !== 'DRAFT') {
          return sendError(
            reply,
            flowError(139004, `Flow ${id} is ${flow.status}; only a DRAFT flow can be deleted.`),
          );
        }
        deps.flows.delete(id);
        return { success: true };
      },
    },
  });
}

/** Create and list the flows of a WhatsApp Business Account. */
function registerFlowCollection(app: FastifyInstance, deps: FlowRouteDeps): void {
  app.post('/:version/:wabaId/flows', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const problem = graphAccessProblem(request, deps.accessToken);
    if (problem) return sendError(reply, problem);
    const wabaId = pathParam(request.params, 'wabaId');
    if (!isWabaId(wabaId)) return sendError(reply, unknownObjectError('post', wabaId));
    const body = isObject(request.body) ? request.body : {};
    const invalid = metadataProblem(body, true);
    if (invalid) return sendError(reply, invalid);
    const flow = deps.flows.create(wabaId, body.name as string, body.categories as string[]);
    if (typeof body.flow_json !== 'string') return { id: flow.id };
    const errors = deps.flows.uploadJson(flow, body.flow_json);
    // `publish: true` publishes a flow whose Flow JSON is valid in the same request, as Meta does; one with
    // validation errors stays a DRAFT, which its answer shows.
    if (body.publish === true && errors.length === 0 && !deps.flows.needsEndpoint(flow)) {
      flow.status = 'PUBLISHED';
      deps.flows.save(flow);
    }
    return { id: flow.id, success: true, validation_errors: errors };
  });

  app.get('/:version/:wabaId/flows', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const problem = graphAccessProblem(request, deps.accessToken);
    if (problem) return sendError(reply, problem);
    const wabaId = pathParam(request.params, 'wabaId');
    if (!isWabaId(wabaId)) return sendError(reply, unknownObjectError('get', wabaId));
    return { data: deps.flows.list(wabaId).map(flowView), paging: { cursors: { before: '', after: '' } } };
  });
}

/** Publish and deprecate: the flow's life, one way. */
function registerFlowLifecycle(app: FastifyInstance, deps: FlowRouteDeps): void {
  app.post('/:version/:flowId/publish', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const flow = flowOf(deps, request, 'post');
    if (isError(flow)) return sendError(reply, flow);
    if (flow.status !== 'DRAFT') {
      return sendError(
        reply,
        flowError(139002, `Flow ${flow.id} is ${flow.status}; only a DRAFT flow can be published.`),
      );
    }
    if (flow.validationErrors.length > 0) {
      return sendError(
        reply,
        flowError(
          139002,
          `Flow ${flow.id} has ${flow.validationErrors.length} validation error(s); fix its Flow JSON first.`,
        ),
      );
    }
    if (deps.flows.needsEndpoint(flow)) {
      return sendError(
        reply,
        flowError(
          139002,
          `Flow ${flow.id} uses a data endpoint (data_api_version): set its endpoint_uri, connect an app and upload the business public key before publishing it.`,
        ),
      );
    }
    flow.status = 'PUBLISHED';
    deps.flows.save(flow);
    return { success: true };
  });

  app.post('/:version/:flowId/deprecate', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const flow = flowOf(deps, request, 'post');
    if (isError(flow)) return sendError(reply, flow);
    if (flow.status !== 'PUBLISHED') {
      return sendError(
        reply,
        flowError(139003, `Flow ${flow.id} is ${flow.status}; only a PUBLISHED flow can be deprecated.`),
      );
    }
    flow.status = 'DEPRECATED';
    deps.flows.save(flow);
    return { success: true };
  });
}

/** Upload the Flow JSON asset. */
function registerFlowAssets(app: FastifyInstance, deps: FlowRouteDeps): void {
  // The asset upload is the one multipart route of the simulated Graph: its parser stays in this scope.
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { files: 1, fields: 5, parts: 6, fieldSize: 1024, fileSize: FLOW_JSON_MAX_BYTES },
    });
    scope.post('/:version/:flowId/assets', { errorHandler: graphErrorHandler }, async (request, reply) => {
      const flow = flowOf(deps, request, 'post');
      if (isError(flow)) return sendError(reply, flow);
      if (!request.isMultipart()) {
        return sendError(reply, graphError(100, 'The asset must be sent as multipart/form-data.'));
      }
      const fields: Record<string, string> = {};
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') {
              await part.toBuffer();
              return sendError(
                reply,
                graphError(100, `Unexpected file part '${part.fieldname}'; send it as 'file'.`),
              );
            }
            file = await part.toBuffer();
          } else {
            fields[part.fieldname] = String(part.value);
          }
        }
      } catch (error) {
        const tooLarge = (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';
        return sendError(
          reply,
          graphError(
            100,
            tooLarge
              ? `The Flow JSON file is larger than ${FLOW_JSON_MAX_BYTES} bytes.`
              : 'The multipart body could not be read.',
          ),
        );
      }
      if (fields.asset_type !== 'FLOW_JSON') {
        return sendError(reply, graphError(100, "Parameter 'asset_type' must be FLOW_JSON."));
      }
      if (fields.name !== 'flow.json')
        return sendError(reply, graphError(100, "Parameter 'name' must be flow.json."));
      if (!file) return sendError(reply, graphError(100, "Parameter 'file' is required."));
      if (flow.status !== 'DRAFT') {
        return sendError(
          reply,
          flowError(
            139001,
            `Flow ${flow.id} is ${flow.status}; the Flow JSON of a published flow cannot change.`,
          ),
        );
      }
      return { success: true, validation_errors: deps.flows.uploadJson(flow, file.toString('utf8')) };
    });
  });
}

/**
 * `GET /{v}/{flow-id}/assets`: the flow's one asset, its Flow JSON, with a link to download it (the same
 * Bearer token), as Meta lists them; a flow with none lists nothing.
 */
function registerAssetListing(app: FastifyInstance, deps: FlowRouteDeps): void {
  app.get('/:version/:flowId/assets', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const flow = flowOf(deps, request, 'get');
    if (isError(flow)) return sendError(reply, flow);
    const link = `${request.protocol}://${request.host}${app.prefix}/flow-json/${flow.id}`;
    const data =
      flow.flowJson === null ? [] : [{ name: 'flow.json', asset_type: 'FLOW_JSON', download_url: link }];
    return { data, paging: { cursors: { before: '', after: '' } } };
  });
  app.get('/flow-json/:flowId', { errorHandler: graphErrorHandler }, async (request, reply) => {
    const flow = flowOf(deps, request, 'get');
    if (isError(flow)) return sendError(reply, flow);
    if (flow.flowJson === null) return sendError(reply, unknownObjectError('get', `${flow.id}/flow.json`));
    return reply.type('application/json').send(flow.flowJson);
  });
}

export function registerFlowRoutes(app: FastifyInstance, deps: FlowRouteDeps): void {
  registerFlowObject(deps);
  registerFlowCollection(app, deps);
  registerFlowLifecycle(app, deps);
  registerFlowAssets(app, deps);
  registerAssetListing(app, deps);
}
