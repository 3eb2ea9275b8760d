/**
 * The template webhooks (docs/cloud-api.md §3.6): `message_template_status_update`,
 * `template_category_update` and `message_template_quality_update`. Note Meta's names: the value says
 * `message_template_name` / `message_template_language`, the id is a JSON number here (a string
 * everywhere else), and `entry[].time` is an integer.
 */
import type { SimTemplate } from './model.ts';

/** One change of the template's WABA under `field`; `entry[].time` is an integer here (Unix seconds). */
function templateChange(template: SimTemplate, field: string, value: object, at: number) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: template.wabaId, time: Math.floor(at / 1000), changes: [{ field, value }] }],
  };
}

export function templateStatusEnvelope(template: SimTemplate, at: number) {
  const value: Record<string, unknown> = {
    event: template.status,
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
    message_template_category: template.category,
    reason: template.status === 'REJECTED' && template.rejection ? template.rejection.reason : 'NONE',
  };
  if (template.status === 'REJECTED' && template.rejection) {
    value.rejection_info = {
      reason: template.rejection.details,
      recommendation: template.rejection.recommendation,
    };
  }
  return templateChange(template, 'message_template_status_update', value, at);
}

/**
 * The `template_category_update` webhook (docs/cloud-api.md §3.6): a change made, with `previous_category`
 * and `new_category`; or, given `comingAt`, Meta's notice a day ahead, where `correct_category` is the
 * category to come and `new_category` still the current one.
 */
export function templateCategoryEnvelope(
  template: SimTemplate,
  change: { previous: string; next: string; comingAt?: number },
  at: number,
) {
  const named = {
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
  };
  const value =
    change.comingAt === undefined
      ? { ...named, previous_category: change.previous, new_category: change.next }
      : {
          ...named,
          correct_category: change.next,
          new_category: change.previous,
          category_update_timestamp: Math.floor(change.comingAt / 1000),
        };
  return templateChange(template, 'template_category_update', value, at);
}

/** The `message_template_quality_update` webhook (docs/cloud-api.md §3.6): the previous and new rating. */
export function templateQualityEnvelope(template: SimTemplate, previous: string, at: number) {
  const value = {
    previous_quality_score: previous,
    new_quality_score: template.quality ?? 'UNKNOWN',
    message_template_id: Number(template.id),
    message_template_name: template.name,
    message_template_language: template.language,
  };
  return templateChange(template, 'message_template_quality_update', value, at);
}
