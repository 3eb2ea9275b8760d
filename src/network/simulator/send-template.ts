/**
 * Template sends (reference §1.3 template, §4). Templates are the one message type allowed outside the
 * 24-hour window (reference §7), so the Graph route asks a TemplateHandler before anything else.
 * The simulated network has no template catalog yet: every template is unknown (132001). A catalog plugs
 * in by implementing TemplateHandler and returning `{ ok: true, rendered }` for an approved template.
 */
import { type GraphError, graphError } from './graph-errors.ts';
import type { Json } from './validate-fields.ts';

export type TemplateOutcome = { ok: true; rendered: string } | { ok: false; error: GraphError };

export interface TemplateHandler {
  /** `template` is the validated `template` object of the send body (name and language.code present). */
  check(business: string, template: Json): TemplateOutcome;
}

export const noTemplates: TemplateHandler = {
  check(_business, template) {
    const name = String(template.name);
    const language = String((template.language as Json).code);
    // Meta answers 404 for this code in its error table; sources disagree (reference §2.3).
    return {
      ok: false,
      error: graphError(132001, `template name (${name}) does not exist in ${language}`, 404),
    };
  },
};
