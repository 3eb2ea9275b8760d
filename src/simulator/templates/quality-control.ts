/**
 * The simulator's own control of a template's quality rating (no Graph auth, like its other controls):
 * Meta rates each template from how its recipients react (blocks, reports) and tells the business with a
 * `message_template_quality_update` webhook (docs/cloud-api.md §3.6).
 *
 * `POST /templates/{template-id}/quality` with `{"score": "GREEN" | "YELLOW" | "RED"}` rates it and posts
 * the change (previous and new rating), unless it is rated so already; answers `{"id", "score"}`. A 404
 * for an unknown template, a 400 naming the field otherwise. Pausing a template for its quality is the status control's (routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { fieldOf, pathParam } from '../request-fields.ts';
import type { TemplateRouteDeps } from './routes.ts';
import { templateQualityEnvelope } from './webhook.ts';

const SCORES = ['GREEN', 'YELLOW', 'RED'] as const;

export function registerQualityControl(app: FastifyInstance, deps: TemplateRouteDeps): void {
  app.post('/templates/:templateId/quality', async (request, reply) => {
    const templateId = pathParam(request.params, 'templateId');
    const template = deps.catalog.get(templateId);
    if (!template) return reply.code(404).send({ error: { message: `No template ${templateId}.` } });
    const score = SCORES.find((s) => s === fieldOf(request.body, 'score'));
    if (!score) return reply.code(400).send({ error: { message: '`score` must be GREEN, YELLOW or RED' } });
    const previous = template.quality ?? 'UNKNOWN';
    if (score !== previous) {
      template.quality = score;
      deps.catalog.save(template);
      deps.poster.enqueue(`template:${template.id}`, templateQualityEnvelope(template, previous, deps.now()));
    }
    return { id: template.id, score };
  });
}
