/**
 * Message ids and webhook bodies of the simulated network (docs/cloud-api.md §3.3–§3.5), in Meta's shapes: ids and
 * timestamps are strings, `entry[].id` is the WhatsApp Business Account, `metadata.phone_number_id` the
 * business number's Graph id (its own digits in the simulator, which are also its WABA id).
 */
import { idRandomBytes } from '../lib/ids.ts';
import type { DeliveryStatus } from './phone-book.ts';
import type { Conversation } from './window-tracker.ts';

/**
 * Each simulated business number is its own WhatsApp Business Account, whose id is the number's
 * phone-number id (its E.164 digits): no registry, and every process agrees on it. Templates belong to
 * it, and its webhooks carry it as `entry[].id`.
 */
export const wabaIdOf = (business: string) => business;

/** The WABA id the flow routes (routes-flows.ts) accept; numbers themselves use wabaIdOf. */
export const SIMULATED_WABA_ID = '102290129340398';

/**
 * `wamid.` + a base64 tail shaped like Meta's (a small binary record holding the user's number and a
 * random hex id, so ids may end in `=`), with `-`/`_` instead of `+`/`/` so it is safe in URL paths.
 */
export function newWamid(user: string, direction: 'outbound' | 'inbound'): string {
  const hex = idRandomBytes(10).toString('hex').toUpperCase();
  const record = Buffer.concat([
    Buffer.from([0x1c, 0x18, user.length]),
    Buffer.from(user),
    Buffer.from([0x15, 0x02, 0x00, direction === 'outbound' ? 0x11 : 0x12, 0x18, hex.length]),
    Buffer.from(hex),
    Buffer.from([0x00]),
  ]);
  return `wamid.${record.toString('base64').replaceAll('+', '-').replaceAll('/', '_')}`;
}

/** The user number a wamid of newWamid holds, or undefined for any other string. */
export function userOfWamid(id: string): string | undefined {
  if (!id.startsWith('wamid.') || id.length > 200) return undefined;
  const record = Buffer.from(id.slice('wamid.'.length).replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  if (record[0] !== 0x1c || record[1] !== 0x18) return undefined;
  const user = record.subarray(3, 3 + (record[2] ?? 0)).toString('latin1');
  return /^\d{6,15}$/.test(user) ? user : undefined;
}

/** Webhook timestamps are Unix seconds as strings (docs/cloud-api.md §0). */
export const unixSeconds = (ms: number) => String(Math.floor(ms / 1000));

export function messagesEnvelope(business: string, value: Record<string, unknown>) {
  return changeEnvelope(business, 'messages', value);
}

/** One change of a business number's WABA under `field` (`messages`, `calls`, ...). */
export function changeEnvelope(business: string, field: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaIdOf(business),
        changes: [
          {
            field,
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: business, phone_number_id: business },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/**
 * A change about the WABA itself rather than a message (`phone_number_quality_update`, ...): Meta's
 * envelope then has `entry[].time` (integer seconds) and a `value` without `messaging_product` or
 * `metadata` (docs/cloud-api.md §3.3), as the template webhooks do (templates/webhook.ts).
 */
export function accountChangeEnvelope(
  business: string,
  field: string,
  value: Record<string, unknown>,
  at: number,
) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: wabaIdOf(business), time: Math.floor(at / 1000), changes: [{ value, field }] }],
  };
}

/** A status's `pricing` under per-message pricing (docs/cloud-api.md §3.5, §7). */
export interface Pricing {
  billable: boolean;
  pricing_model: 'PMP';
  category: 'service' | 'marketing' | 'utility' | 'authentication';
  type: 'regular' | 'free_customer_service';
}

const SERVICE_PRICING: Pricing = {
  billable: false,
  pricing_model: 'PMP',
  category: 'service',
  type: 'free_customer_service',
};

/**
 * What a message costs, as its statuses say: a free-form (service) message inside the customer-service
 * window is free, and so is a utility template there; any other template is charged by its category.
 */
export function pricingOf(templateCategory: string | undefined, windowOpen: boolean): Pricing {
  if (templateCategory === undefined) return SERVICE_PRICING;
  const category = templateCategory.toLowerCase() as Pricing['category'];
  if (category === 'utility' && windowOpen) return { ...SERVICE_PRICING, category };
  return { billable: true, pricing_model: 'PMP', category, type: 'regular' };
}

export interface StatusFacts {
  id: string;
  status: DeliveryStatus;
  at: number;
  recipient: string;
  conversation: Conversation | null;
  /** Service pricing when absent (a timeline kept before pricing by category). */
  pricing?: Pricing;
  callbackData?: string;
  errors?: unknown[];
}

/** One `statuses[]` item (docs/cloud-api.md §3.5): conversation and pricing on success, `errors[]` on failure. */
export function statusItem(facts: StatusFacts): Record<string, unknown> {
  const item: Record<string, unknown> = {
    id: facts.id,
    status: facts.status,
    timestamp: unixSeconds(facts.at),
    recipient_id: facts.recipient,
  };
  if (facts.callbackData !== undefined) item.biz_opaque_callback_data = facts.callbackData;
  if (facts.status === 'failed') {
    item.errors = facts.errors ?? [];
    return item;
  }
  const pricing = facts.pricing ?? SERVICE_PRICING;
  if (facts.conversation) {
    item.conversation = {
      id: facts.conversation.id,
      // Meta sends the expiry with the first status of a conversation's message only (docs/cloud-api.md §3.5).
      ...(facts.status === 'sent' ? { expiration_timestamp: unixSeconds(facts.conversation.expiresAt) } : {}),
      origin: { type: pricing.category },
    };
  }
  item.pricing = { ...pricing };
  return item;
}
