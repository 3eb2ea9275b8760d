/**
 * Template sends (docs/cloud-api.md §1.3 template, §4). Templates are the one message type allowed outside the
 * 24-hour window (docs/cloud-api.md §7), so the Graph route asks a TemplateHandler before anything else. The
 * network's handler is backed by its template catalog (templates/send-check.ts): an approved template of
 * the sending number's WABA, with parameters that fit, comes back as the text the phone shows and the
 * filled-in template the phone page draws (templates/filled-template.ts).
 */
import type { GraphError } from './graph-errors.ts';
import type { FilledTemplate } from './templates/filled-template.ts';
import type { TemplateCategory } from './templates/model.ts';
import type { Json } from './validate-fields.ts';

export type TemplateOutcome =
  /** `category` decides who may still receive it (a user who stopped marketing: marketing-stops.ts). */
  | { ok: true; rendered: string; template: FilledTemplate; category: TemplateCategory }
  | { ok: false; error: GraphError };

export interface TemplateHandler {
  /**
   * `template` is the validated `template` object of the send body (name and language.code present);
   * `userId` is set when the send named its recipient by business-scoped user id (docs/cloud-api.md §10).
   */
  check(business: string, template: Json, recipient?: { userId?: string }): TemplateOutcome;
}
