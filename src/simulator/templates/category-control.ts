/**
 * The simulator's own control of a template's category (no Graph auth, like its other controls): Meta moves
 * templates between UTILITY and MARKETING by hand or by an automated review, and tells the business with a
 * `template_category_update` webhook (docs/cloud-api.md §3.6).
 *
 * `POST /templates/{template-id}/category` with `{"category": "MARKETING" | "UTILITY"}` makes the change
 * and posts it; with `"notice": true` it posts only Meta's notice a day ahead and changes nothing. Answers
 * the template as the Graph API shows it; a 404 for an unknown template, a 400 naming the field otherwise.
 * A template sent afterwards is judged by its new category (a MARKETING one fails with 131050 to a user who
 * stopped the business's marketing, marketing-stops.ts).
 */
import type { FastifyInstance } from 'fastify';
import { fieldOf, pathParam } from '../request-fields.ts';
import type { TemplateRouteDeps } from './routes.ts';
import { templateView } from './view.ts';
import { templateCategoryEnvelope } from './webhook.ts';

const MOVABLE = ['MARKETING', 'UTILITY'] as const;
const DAY_MS = 86_400_000;

export function registerCategoryControl(app: FastifyInstance, deps: TemplateRouteDeps): void {
  app.post('/templates/:templateId/category', async (request, reply) => {
    const templateId = pathParam(request.params, 'templateId');
    const template = deps.catalog.get(templateId);
    if (!template) return reply.code(404).send({ error: { message: `No template ${templateId}.` } });
    const refuse = (message: string) => reply.code(400).send({ error: { message } });
    const category = fieldOf(request.body, 'category');
    const notice = fieldOf(request.body, 'notice') ?? false;
    if (!MOVABLE.some((c) => c === category)) return refuse('`category` must be MARKETING or UTILITY');
    if (typeof notice !== 'boolean') return refuse('`notice` must be true or false');
    if (!MOVABLE.some((c) => c === template.category))
      return refuse(
        `An ${template.category} template keeps its category: only UTILITY and MARKETING ones move.`,
      );
    if (category === template.category) return refuse(`\`category\`: the template is ${category} already`);
    const next = category as (typeof MOVABLE)[number];
    const now = deps.now();
    const change = { previous: template.category, next, ...(notice ? { comingAt: now + DAY_MS } : {}) };
    if (!notice) {
      template.category = next;
      deps.catalog.save(template);
    }
    deps.poster.enqueue(`template:${template.id}`, templateCategoryEnvelope(template, change, now));
    return templateView(template);
  });
}
