/**
 * The simulated WhatsApp Business Management API for message templates (docs/cloud-api.md §4.1):
 * `POST|GET|DELETE /{v}/{waba-id}/message_templates`, and `GET|POST /{v}/{template-id}` through the shared
 * bare-id routes (graph-objects.ts). A WABA id is a business number's phone-number id (wabaIdOf); any
 * other id is Graph's unknown object. Also `POST /templates/{template-id}/status` (no Graph auth, like the
 * virtual phones): a test pauses, disables or reinstates an approved template, as Meta's quality checks do;
 * and `POST /templates/{template-id}/category` (category-control.ts) and `.../quality` (quality-control.ts),
 * as Meta's recategorization and quality ratings do.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { normalizePhone } from '../../lib/phone.ts';
import { GraphProblem, graphError, sendGraphError, unknownObjectError } from '../graph-errors.ts';
import type { GraphObjects } from '../graph-objects.ts';
import { fieldOf, pathParam } from '../request-fields.ts';
import { graphAccessProblem } from '../routes-graph.ts';
import type { WebhookPoster } from '../webhook-poster.ts';
import { MAX_TEMPLATES_PER_WABA, type TemplateCatalog } from './catalog.ts';
import { registerCategoryControl } from './category-control.ts';
import { applyEdit } from './edit.ts';
import { SUBCODE, templateError } from './errors.ts';
import { listPage } from './list.ts';
import { registerQualityControl } from './quality-control.ts';
import type { TemplateReview } from './review.ts';
import { checkCreateBody } from './validate-create.ts';
import { projectFields, templateView } from './view.ts';
import { templateStatusEnvelope } from './webhook.ts';

export interface TemplateRouteDeps {
  accessToken: string;
  catalog: TemplateCatalog;
  review: TemplateReview;
  objects: GraphObjects;
  poster: WebhookPoster;
  now: () => number;
}

const sendError = sendGraphError;

/** Unreadable bodies still answer in Graph's shape. */
function graphErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof GraphProblem) return sendError(reply, error.error);
  if ((error.statusCode ?? 500) < 500) {
    return sendError(reply, graphError(100, `The request body could not be read: ${error.message}`));
  }
  request.log.error({ err: error }, 'simulated template API failed');
  return sendError(reply, graphError(1, 'The simulated network failed to handle the request.', 500));
}

/** Version, token and WABA id, in Graph's order; the WABA id or the error to answer. */
function wabaOf(deps: TemplateRouteDeps, request: FastifyRequest, method: 'get' | 'post' | 'delete'): string {
  const problem = graphAccessProblem(request, deps.accessToken);
  if (problem) throw new GraphProblem(problem);
  const wabaId = pathParam(request.params, 'wabaId');
  // A WABA is a number's own digits: `+1415...` or a formatted number is not a Graph id.
  if (!/^\d+$/.test(wabaId) || normalizePhone(wabaId) !== wabaId) {
    throw new GraphProblem(unknownObjectError(method, wabaId));
  }
  return wabaId;
}

/** Creates a template if the WABA may have one more by that name and language; it goes to review. */
function createTemplate(deps: TemplateRouteDeps, request: FastifyRequest) {
  const wabaId = wabaOf(deps, request, 'post');
  const input = checkCreateBody(request.body);
  if (deps.catalog.find(wabaId, input.name, input.language)) {
    throw templateError(
      `Content in this language already exists: ${input.name} already has a ${input.language} translation in WABA ${wabaId}.`,
      'Content in this language already exists',
      SUBCODE.duplicateContent,
    );
  }
  if (deps.catalog.nameHeld(wabaId, input.name, deps.now())) {
    throw templateError(
      `${input.name} belonged to an approved template deleted less than 30 days ago; choose another name.`,
      'Name being deleted',
      SUBCODE.nameBeingDeleted,
    );
  }
  if (deps.catalog.count(wabaId) >= MAX_TEMPLATES_PER_WABA) {
    throw templateError(
      `WABA ${wabaId} holds ${MAX_TEMPLATES_PER_WABA} templates, the most it may; delete one first.`,
      'Message template limit reached',
      SUBCODE.templateLimit,
    );
  }
  const template = deps.catalog.create({ wabaId, ...input });
  deps.review.submit(template);
  return { id: template.id, status: template.status, category: template.category };
}

/** The template as a Graph object: read it, or edit it (which sends it back to review). */
function registerTemplateObject(deps: TemplateRouteDeps): void {
  deps.objects.register({
    name: 'message template',
    owns: (id) => deps.catalog.get(id) !== undefined,
    handlers: {
      get(id, request) {
        return projectFields(templateView(deps.catalog.get(id)!), fieldOf(request.query, 'fields'));
      },
      post(id, request, reply) {
        const template = deps.catalog.get(id)!;
        try {
          applyEdit(template, request.body, deps.now());
        } catch (error) {
          if (error instanceof GraphProblem) return sendError(reply, error.error);
          throw error;
        }
        deps.catalog.save(template);
        deps.catalog.touch(template.wabaId);
        deps.review.submit(template);
        return { success: true };
      },
    },
  });
}

/** Create, list and delete the templates of a WhatsApp Business Account. */
function registerTemplateCollection(app: FastifyInstance, deps: TemplateRouteDeps): void {
  app.post('/:version/:wabaId/message_templates', { errorHandler: graphErrorHandler }, async (request) =>
    createTemplate(deps, request),
  );

  app.get('/:version/:wabaId/message_templates', { errorHandler: graphErrorHandler }, async (request) => {
    const wabaId = wabaOf(deps, request, 'get');
    return listPage(request, deps.catalog, wabaId);
  });

  app.delete('/:version/:wabaId/message_templates', { errorHandler: graphErrorHandler }, async (request) => {
    const wabaId = wabaOf(deps, request, 'delete');
    const query = { name: fieldOf(request.query, 'name'), hsm_id: fieldOf(request.query, 'hsm_id') };
    if (typeof query.name !== 'string' || query.name === '') {
      throw templateError("Parameter 'name' is required to delete a message template.", 'Invalid parameter');
    }
    const named = deps.catalog.named(wabaId, query.name);
    const doomed = query.hsm_id === undefined ? named : named.filter((t) => t.id === query.hsm_id);
    if (doomed.length === 0) {
      const which = query.hsm_id === undefined ? '' : ` with hsm_id ${String(query.hsm_id)}`;
      throw templateError(
        `Message template ${query.name}${which} was not found in WABA ${wabaId}.`,
        'Message template not found',
      );
    }
    for (const template of doomed) deps.catalog.delete(template, deps.now());
    return { success: true };
  });
}

/** The simulator's own control: an approved template paused or disabled, as Meta does for quality. */
function registerStatusControl(app: FastifyInstance, deps: TemplateRouteDeps): void {
  app.post('/templates/:templateId/status', async (request, reply) => {
    const templateId = pathParam(request.params, 'templateId');
    const template = deps.catalog.get(templateId);
    if (!template) return reply.code(404).send({ error: { message: `No template ${templateId}.` } });
    const status = fieldOf(request.body, 'status');
    const allowed =
      (template.status === 'APPROVED' && (status === 'PAUSED' || status === 'DISABLED')) ||
      (template.status === 'PAUSED' && (status === 'APPROVED' || status === 'DISABLED'));
    if (!allowed) {
      return reply.code(400).send({
        error: {
          message: `A ${template.status} template cannot become ${JSON.stringify(status)}: an APPROVED one may become PAUSED or DISABLED, a PAUSED one APPROVED or DISABLED.`,
        },
      });
    }
    template.status = status as 'APPROVED' | 'PAUSED' | 'DISABLED';
    deps.catalog.save(template);
    deps.poster.enqueue(`template:${template.id}`, templateStatusEnvelope(template, deps.now()));
    return templateView(template);
  });
}

/** The simulator's own control: a pending review decided now, by its rules, rather than after its delay. */
function registerReviewControl(app: FastifyInstance, deps: TemplateRouteDeps): void {
  app.post('/templates/:templateId/review', async (request, reply) => {
    const templateId = pathParam(request.params, 'templateId');
    const template = deps.catalog.get(templateId);
    if (!template) return reply.code(404).send({ error: { message: `No template ${templateId}.` } });
    if (!deps.review.decideNow(template)) {
      return reply.code(409).send({
        error: {
          message: `Template ${templateId} is ${template.status}; only a PENDING review can be decided.`,
        },
      });
    }
    return templateView(template);
  });
}

export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateRouteDeps): void {
  registerTemplateObject(deps);
  registerTemplateCollection(app, deps);
  registerStatusControl(app, deps);
  registerReviewControl(app, deps);
  registerCategoryControl(app, deps);
  registerQualityControl(app, deps);
}
