/**
 * A template as the Graph answers it (docs/cloud-api.md §4.4, §4.5): ids as strings, components in the
 * upper-case creation shape (an authentication template's as WhatsApp wrote it, its OTP button a URL
 * button carrying the code; a carousel's cards as `{components}`). `?fields=a,b` keeps those fields (and
 * `id`, which Graph always answers).
 */
import type { Json } from '../validate-fields.ts';
import type { SimTemplate } from './model.ts';

export function templateView(template: SimTemplate): Json {
  return {
    id: template.id,
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category,
    parameter_format: 'POSITIONAL',
    ...(template.messageSendTtlSeconds !== undefined
      ? { message_send_ttl_seconds: template.messageSendTtlSeconds }
      : {}),
    components: template.content.components,
    rejected_reason:
      template.status === 'REJECTED' && template.rejection ? template.rejection.reason : 'NONE',
  };
}

export function projectFields(view: Json, fields: unknown): Json {
  if (typeof fields !== 'string' || fields.trim() === '') return view;
  const wanted = new Set(fields.split(',').map((f) => f.trim()));
  wanted.add('id');
  return Object.fromEntries(Object.entries(view).filter(([key]) => wanted.has(key)));
}
