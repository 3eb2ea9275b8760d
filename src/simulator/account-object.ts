/**
 * What `GET /{v}/{id}` answers for a business number (docs/cloud-api.md §11). In the simulator a business's
 * phone-number id is also its WhatsApp Business Account id, so the one object carries the fields of both:
 * the phone number's (`display_phone_number`, `verified_name`, `quality_rating`) and the account's
 * (`name`, `currency`, `timezone_id`, `message_template_namespace`). `fields=` picks among them, as on Graph.
 */
import { createHash } from 'node:crypto';
import type { Json } from './validate-fields.ts';

/** A namespace shaped like Meta's (a UUID with underscores), the same for a business every time. */
function templateNamespace(business: string): string {
  const hex = createHash('sha256').update(`namespace:${business}`).digest('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join(
    '_',
  );
}

export function businessObject(business: string, fields: unknown): Json {
  const all: Json = {
    id: business,
    display_phone_number: business,
    verified_name: 'Simulated Business',
    quality_rating: 'GREEN',
    name: 'Simulated Business',
    currency: 'USD',
    // Graph's time zone id 1 is America/Los_Angeles.
    timezone_id: '1',
    message_template_namespace: templateNamespace(business),
  };
  if (typeof fields !== 'string' || fields.trim() === '') return all;
  const wanted = new Set(fields.split(',').map((f) => f.trim()));
  // Graph always names the object's id.
  return Object.fromEntries(Object.entries(all).filter(([k]) => k === 'id' || wanted.has(k)));
}
