/**
 * The network's verdicts on templates (docs/cloud-api.md §3.6): recorded with their `template.status` event in one
 * transaction, so a business learns every review. A repeated verdict changes nothing. A verdict on an id
 * not stored is kept by the store and applied if a create of that id is recorded after it: the network
 * may answer a create and post its verdict before the gateway has written the template down. Verdicts on
 * templates made outside this gateway are kept as well, and cleared by retention.
 */

import type {
  TemplateCategoryEvent,
  TemplateQualityEvent,
  TemplateStatusEvent,
} from '../ports/network-events.ts';
import type { TemplatesStore } from '../ports/templates.ts';

export interface TemplateReviewDeps {
  templates: TemplatesStore;
  wakeDispatcher(): void;
}

/**
 * Events that are not a status of their own (docs/cloud-api.md §3.6): a reinstated template is approved
 * again. A Map, not an object: an event named "constructor" must not find Object's own properties.
 */
const STATUS_OF_EVENT = new Map<string, string>([
  ['REINSTATED', 'APPROVED'],
  ['UNARCHIVED', 'APPROVED'],
  ['UNLOCKED', 'APPROVED'],
]);

export async function recordTemplateReview(
  deps: TemplateReviewDeps,
  event: TemplateStatusEvent,
): Promise<void> {
  const status = STATUS_OF_EVENT.get(event.event) ?? event.event;
  const rejected = status === 'REJECTED';
  const reason = rejected ? event.reason : 'NONE';
  const info = rejected ? event.rejectionInfo : null;
  const applied = await deps.templates.applyReview(event.templateId, { status, reason, info, at: event.at });
  if (applied?.eventId) deps.wakeDispatcher();
}

/**
 * The network moved a template to another category (docs/cloud-api.md §3.6): the template is sent by its
 * new category from now on (a MARKETING one is refused to users who opted out, docs/opt-outs.md), and the
 * business hears `template.category`. A template not stored here (made outside this gateway) is left alone.
 */
export async function recordTemplateCategory(
  deps: TemplateReviewDeps & { logger: { info(obj: object, msg: string): void } },
  event: TemplateCategoryEvent,
): Promise<void> {
  const { templateId, category, at } = event;
  const applied = await deps.templates.applyCategory(templateId, { category, at });
  if (applied?.eventId) deps.wakeDispatcher();
  // Said in the log, as every item of the network's that changes nothing is (docs/webhooks.md).
  const unchanged = 'template category unchanged: not stored here, or already so; ignored';
  if (!applied) deps.logger.info({ templateId, category }, unchanged);
}

/**
 * The network's new quality rating of a template (docs/cloud-api.md §3.6): the listing shows it
 * (`quality_score`). A rating of a template not stored here, or a repeat, is logged and changes nothing.
 */
export async function recordTemplateQuality(
  deps: Pick<TemplateReviewDeps, 'templates'> & { logger: { info(obj: object, msg: string): void } },
  event: TemplateQualityEvent,
): Promise<void> {
  const { templateId, score, at } = event;
  if (await deps.templates.applyQuality(templateId, { score, at })) return;
  deps.logger.info(
    { templateId, score },
    'template quality unchanged: not stored here, or already so; ignored',
  );
}
