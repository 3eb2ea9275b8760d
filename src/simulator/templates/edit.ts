/**
 * Editing a template, `POST /{template-id}` (docs/cloud-api.md §4.6): only an APPROVED, REJECTED or PAUSED
 * template; an APPROVED one at most once per 24 hours and ten times per 30 days (REJECTED and PAUSED ones
 * without limit); the category of an approved template stays; name and language never change. An edit
 * sends the template back to PENDING for a new review.
 */
import { isObject } from '../validate-fields.ts';
import { invalidField, templateError } from './errors.ts';
import type { SimTemplate } from './model.ts';
import { checkCategory, checkComponents } from './validate-create.ts';

const DAY_MS = 24 * 60 * 60_000;
export const EDIT_LIMITS = { perDay: 1, perThirtyDays: 10 } as const;

/** Checks the edit body and applies it; the caller queues the review. Throws a GraphProblem. */
export function applyEdit(template: SimTemplate, raw: unknown, now: number): void {
  if (!isObject(raw)) throw templateError('The request body must be a JSON object.', 'Invalid template');
  for (const fixed of ['name', 'language'] as const) {
    if (raw[fixed] !== undefined && raw[fixed] !== template[fixed]) {
      throw invalidField(fixed, 'cannot be changed; create a new template instead');
    }
  }
  if (raw.components === undefined && raw.category === undefined) {
    throw templateError("An edit needs 'components' or 'category'.", 'Nothing to edit');
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
  const recent = template.approvedEdits.filter((at) => now - at < 30 * DAY_MS);
  if (status === 'APPROVED') {
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
  }
  const content = raw.components === undefined ? template.content : checkComponents(raw.components, category);
  template.approvedEdits = status === 'APPROVED' ? [...recent, now] : recent;
  template.category = category;
  template.content = content;
  template.status = 'PENDING';
  delete template.rejection;
  template.submission++;
}
