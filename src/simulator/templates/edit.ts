/**
 * Editing a template, `POST /{template-id}` (docs/cloud-api.md §4.6): only an APPROVED, REJECTED or PAUSED
 * template; an APPROVED one at most once per 24 hours and ten times per 30 days (REJECTED and PAUSED ones
 * without limit); the category of an approved template stays; name and language never change. An edit
 * may also set an authentication template's `message_send_ttl_seconds`. An edit sends the template back to
 * PENDING for a new review.
 */
import { isObject, type Json } from '../validate-fields.ts';
import { invalidField, templateError } from './errors.ts';
import type { SimTemplate, TemplateCategory } from './model.ts';
import { checkCategory, checkComponents, checkSendTtl } from './validate-create.ts';

const DAY_MS = 24 * 60 * 60_000;
export const EDIT_LIMITS = { perDay: 1, perThirtyDays: 10 } as const;

/** The approved edits of the last 30 days, after checking an APPROVED template may be edited again now. */
function recentEdits(template: SimTemplate, now: number): number[] {
  const recent = template.approvedEdits.filter((at) => now - at < 30 * DAY_MS);
  if (template.status !== 'APPROVED') return recent;
  if (recent.filter((at) => now - at < DAY_MS).length >= EDIT_LIMITS.perDay) {
    throw templateError(
      `Template ${template.id} was edited in the last 24 hours; an approved template can be edited once per 24 hours.`,
      'Edit limit reached',
    );
  }
  if (recent.length >= EDIT_LIMITS.perThirtyDays) {
    throw templateError(
      `Template ${template.id} was edited ${recent.length} times in the last 30 days; the limit is ${EDIT_LIMITS.perThirtyDays}.`,
      'Edit limit reached',
    );
  }
  return recent;
}

/** The components and send TTL the template has after the edit, in its (possibly new) category. */
function editedContent(template: SimTemplate, raw: Json, category: TemplateCategory) {
  // The stored components of an authentication template are WhatsApp's texts, not a create body: a change
  // to or from AUTHENTICATION needs the components anew.
  const authenticationChange = (category === 'AUTHENTICATION') !== (template.category === 'AUTHENTICATION');
  if (authenticationChange && raw.components === undefined) {
    throw invalidField('components', `are required to change the category to ${category}`);
  }
  const content = raw.components === undefined ? template.content : checkComponents(raw.components, category);
  const kept = category === 'AUTHENTICATION' ? template.messageSendTtlSeconds : undefined;
  const ttl =
    raw.message_send_ttl_seconds === undefined ? kept : checkSendTtl(raw.message_send_ttl_seconds, category);
  return { content, ttl };
}

/** Checks the edit body and applies it; the caller queues the review. Throws a GraphProblem. */
export function applyEdit(template: SimTemplate, raw: unknown, now: number): void {
  if (!isObject(raw)) throw templateError('The request body must be a JSON object.', 'Invalid template');
  for (const fixed of ['name', 'language'] as const) {
    if (raw[fixed] !== undefined && raw[fixed] !== template[fixed]) {
      throw invalidField(fixed, 'cannot be changed; create a new template instead');
    }
  }
  if (
    raw.components === undefined &&
    raw.category === undefined &&
    raw.message_send_ttl_seconds === undefined
  ) {
    throw templateError(
      "An edit needs 'components', 'category' or 'message_send_ttl_seconds'.",
      'Nothing to edit',
    );
  }
  const { status } = template;
  if (status !== 'APPROVED' && status !== 'REJECTED' && status !== 'PAUSED') {
    throw templateError(
      `Template ${template.id} is ${status}; only APPROVED, REJECTED or PAUSED templates can be edited.`,
      "Template can't be edited",
    );
  }
  const category = raw.category === undefined ? template.category : checkCategory(raw.category);
  if (status === 'APPROVED' && category !== template.category) {
    throw invalidField('category', `of an approved template cannot change (it is ${template.category})`);
  }
  const recent = recentEdits(template, now);
  const { content, ttl } = editedContent(template, raw, category);
  if (ttl === undefined) delete template.messageSendTtlSeconds;
  else template.messageSendTtlSeconds = ttl;
  template.approvedEdits = status === 'APPROVED' ? [...recent, now] : recent;
  template.category = category;
  template.content = content;
  template.status = 'PENDING';
  delete template.rejection;
  template.submission++;
}
