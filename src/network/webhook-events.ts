/**
 * Reads the Cloud API webhook envelope (reference §3.3–§3.5) into flat events. Tolerant by design: unknown
 * fields are ignored and a malformed entry is skipped, because one odd entry must not cost the others.
 */
export interface InboundMessageEvent {
  kind: 'message';
  phoneNumberId: string;
  userPhone: string;
  profileName: string | null;
  waId: string;
  /** Epoch milliseconds. */
  at: number;
  type: string;
  /** The network's message object as received (`text`, `interactive`, `location`, ...). */
  message: Record<string, unknown>;
}

export interface StatusEvent {
  kind: 'status';
  phoneNumberId: string;
  waId: string;
  status: string;
  at: number;
  errors: { code: number; title: string; details?: string }[];
  /** `recipient_id`: the user's WhatsApp id, when given. */
  recipient: string | null;
  /** `biz_opaque_callback_data` as the send carried it: the gateway's message id (docs/adr/0013). */
  callbackData: string | null;
}

/** A template's review or state change (reference §3.6 `message_template_status_update`). */
export interface TemplateStatusEvent {
  kind: 'template_status';
  /** The network's template id (a number on the wire, a string here as everywhere else). */
  templateId: string;
  /** `APPROVED`, `REJECTED`, `PAUSED`, ... */
  event: string;
  /** A rejection reason of reference §4.4, or `NONE`. */
  reason: string;
  at: number;
}

export type NetworkEvent = InboundMessageEvent | StatusEvent | TemplateStatusEvent;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

function epochMs(timestamp: unknown): number {
  const seconds = Number(timestamp);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now();
}

function errorsOf(value: unknown): StatusEvent['errors'] {
  return asArray(value)
    .filter(isObject)
    .map((e) => {
      const data = e.error_data;
      const details = isObject(data) ? str(data.details) : str(data);
      return {
        code: Number(e.code) || 0,
        title: str(e.title) ?? str(e.message) ?? 'error',
        ...(details ? { details } : {}),
      };
    });
}

export function readWebhookEvents(body: unknown): NetworkEvent[] {
  const events: NetworkEvent[] = [];
  if (!isObject(body)) return events;
  for (const entry of asArray(body.entry).filter(isObject)) {
    for (const change of asArray(entry.changes).filter(isObject)) {
      if (change.field === 'message_template_status_update' && isObject(change.value)) {
        const templateId = str(change.value.message_template_id);
        const event = str(change.value.event);
        if (templateId && event) {
          const reason = str(change.value.reason) ?? 'NONE';
          events.push({ kind: 'template_status', templateId, event, reason, at: epochMs(entry.time) });
        }
        continue;
      }
      if (change.field !== 'messages' || !isObject(change.value)) continue;
      const value = change.value;
      const phoneNumberId = isObject(value.metadata) ? str(value.metadata.phone_number_id) : undefined;
      if (!phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const c of asArray(value.contacts).filter(isObject)) {
        const waId = str(c.wa_id);
        const name = isObject(c.profile) ? str(c.profile.name) : undefined;
        if (waId && name) names.set(waId, name);
      }
      for (const m of asArray(value.messages).filter(isObject)) {
        const from = str(m.from);
        const id = str(m.id);
        const type = str(m.type);
        if (!from || !id || !type) continue;
        events.push({
          kind: 'message',
          phoneNumberId,
          userPhone: from,
          profileName: names.get(from) ?? null,
          waId: id,
          at: epochMs(m.timestamp),
          type,
          message: m,
        });
      }
      for (const s of asArray(value.statuses).filter(isObject)) {
        const id = str(s.id);
        const status = str(s.status);
        if (!id || !status) continue;
        events.push({
          kind: 'status',
          phoneNumberId,
          waId: id,
          status,
          at: epochMs(s.timestamp),
          errors: errorsOf(s.errors),
          recipient: str(s.recipient_id) ?? null,
          // Only a string is the network's echo of what a send carried; anything else is not ours.
          callbackData: typeof s.biz_opaque_callback_data === 'string' ? s.biz_opaque_callback_data : null,
        });
      }
    }
  }
  return events;
}
