/**
 * The TemplateHandler of the simulated network (send-template.ts): a template send names a template of
 * the sending number's WABA by name and `language.code`; it must be APPROVED (132001 otherwise, 132015
 * when PAUSED, 132016 when DISABLED) and its parameters must fit (send-parameters.ts). The answer is what
 * the virtual phone shows.
 */
import { GraphProblem, graphError } from '../graph-errors.ts';
import type { TemplateHandler } from '../send-template.ts';
import type { Json } from '../validate-fields.ts';
import { wabaIdOf } from '../webhook-envelopes.ts';
import type { TemplateCatalog } from './catalog.ts';
import { renderTemplate } from './render.ts';
import { fillParameters } from './send-parameters.ts';

export function catalogTemplates(catalog: TemplateCatalog): TemplateHandler {
  return {
    check(business, template) {
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
      if (found.status === 'PAUSED') {
        return { ok: false, error: graphError(132015, `Template ${name} (${language}) is paused.`) };
      }
      if (found.status === 'DISABLED') {
        return { ok: false, error: graphError(132016, `Template ${name} (${language}) is disabled.`) };
      }
      if (found.status !== 'APPROVED') {
        return {
          ok: false,
          error: graphError(
            132001,
            `template name (${name}) in ${language} is ${found.status}, not APPROVED`,
            404,
          ),
        };
      }
      try {
        const filled = fillParameters(found.content, template.components);
        return { ok: true, rendered: renderTemplate(found.content, filled) };
      } catch (error) {
        if (error instanceof GraphProblem) return { ok: false, error: error.error };
        throw error;
      }
    },
  };
}
