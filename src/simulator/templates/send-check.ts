/**
 * The TemplateHandler of the simulated network (send-template.ts): a template send names a template of
 * the sending number's WABA by name and `language.code`; it must be APPROVED (132001 otherwise, 132015
 * when PAUSED, 132016 when DISABLED) and its parameters must fit (send-parameters.ts). An authentication
 * template needs the recipient's phone number: named by business-scoped user id it is 131062
 * (docs/cloud-api.md §10). The answer is what the virtual phone shows.
 */
import { type GraphError, GraphProblem, graphError } from '../graph-errors.ts';
import type { TemplateHandler } from '../send-template.ts';
import type { Json } from '../validate-fields.ts';
import { wabaIdOf } from '../webhook-envelopes.ts';
import type { TemplateCatalog } from './catalog.ts';
import { filledTemplate } from './filled-template.ts';
import type { SimTemplate } from './model.ts';
import { renderTemplate } from './render.ts';
import { fillParameters } from './send-parameters.ts';

/** Why an existing template cannot be sent now, if it cannot. */
function statusProblem(found: SimTemplate, name: string, language: string): GraphError | undefined {
  if (found.status === 'PAUSED') return graphError(132015, `Template ${name} (${language}) is paused.`);
  if (found.status === 'DISABLED') return graphError(132016, `Template ${name} (${language}) is disabled.`);
  if (found.status !== 'APPROVED') {
    return graphError(132001, `template name (${name}) in ${language} is ${found.status}, not APPROVED`, 404);
  }
  return undefined;
}

export function catalogTemplates(catalog: TemplateCatalog): TemplateHandler {
  return {
    check(business, template, recipient = {}) {
      const name = String(template.name);
      const language = String((template.language as Json).code);
      const wabaId = wabaIdOf(business);
      const found = catalog.find(wabaId, name, language);
      if (!found) {
        const others = catalog.named(wabaId, name).map((t) => t.language);
        const hint = others.length ? `; it exists in ${others.join(', ')}` : '';
        // Meta answers 404 for this code in its error table; sources disagree (docs/cloud-api.md §2.3).
        return {
          ok: false,
          error: graphError(132001, `template name (${name}) does not exist in ${language}${hint}`, 404),
        };
      }
      const refused = statusProblem(found, name, language);
      if (refused) return { ok: false, error: refused };
      if (found.category === 'AUTHENTICATION' && recipient.userId !== undefined) {
        const details = `Parameter 'recipient': authentication templates need the user's phone number in 'to', not a business-scoped user id (${recipient.userId}).`;
        return { ok: false, error: graphError(131062, details) };
      }
      try {
        const filled = filledTemplate(found.content, fillParameters(found.content, template.components));
        return { ok: true, rendered: renderTemplate(filled), template: filled, category: found.category };
      } catch (error) {
        if (error instanceof GraphProblem) return { ok: false, error: error.error };
        throw error;
      }
    },
  };
}
