/**
 * The network's verdicts on templates (docs/cloud-api.md §3.6): recorded with their `template.status` event in one
 * transaction, so a business learns every review. Unknown template ids (created outside this gateway) are
 * ignored; a repeated verdict changes nothing.
 */

import type { TemplateStatusEvent } from '../ports/network-events.ts';
import type { TemplatesStore } from '../ports/templates.ts';

export interface TemplateReviewDeps {
  templates: TemplatesStore;
  wakeDispatcher(): void;
}

/** Events that are not a status of their own (docs/cloud-api.md §3.6): a reinstated template is approved again. */
const STATUS_OF_EVENT: Record<string, string> = {
  REINSTATED: 'APPROVED',
  UNARCHIVED: 'APPROVED',
  UNLOCKED: 'APPROVED',
};

export async function recordTemplateReview(
  deps: TemplateReviewDeps,
  event: TemplateStatusEvent,
): Promise<void> {
  const status = STATUS_OF_EVENT[event.event] ?? event.event;
  const reason = status === 'REJECTED' ? event.reason : 'NONE';
  const applied = await deps.templates.applyReview(event.templateId, { status, reason, at: event.at });
  if (applied?.eventId) deps.wakeDispatcher();
}
