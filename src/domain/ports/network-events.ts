/**
 * What the network reports through its webhooks, as the domain reads it: flat events, every field checked
 * by the reader that makes them (src/network/webhook-events.ts).
 */

export interface InboundMessageEvent {
  kind: 'message';
  phoneNumberId: string;
  /** The user's phone number (digits), unless the network withheld it (docs/cloud-api.md §10). */
  userPhone: string | null;
  /** The user's business-scoped user id, when the network gave one; with no phone, it names the user. */
  userId: string | null;
  /** The user's username, when they have one: for display, never an identity. */
  username: string | null;
  profileName: string | null;
  waId: string;
  /** Epoch milliseconds. */
  at: number;
  /** One of INBOUND_TYPES; a type the gateway does not know arrives as `unsupported`. */
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
  /** `recipient_user_id`: the user's business-scoped user id (docs/cloud-api.md §10), when given. */
  recipientUserId: string | null;
  /** `biz_opaque_callback_data` as the send carried it: the gateway's message id (docs/adr/0013). */
  callbackData: string | null;
  /** The network's status object as it arrived: what the fields above do not model (pricing, ...). */
  network: Record<string, unknown>;
}

/** A template's review or state change (docs/cloud-api.md §3.6 `message_template_status_update`). */
export interface TemplateStatusEvent {
  kind: 'template_status';
  /** The network's template id (a number on the wire, a string here as everywhere else). */
  templateId: string;
  /** `APPROVED`, `REJECTED`, `PAUSED`, ... */
  event: string;
  /** A rejection reason of docs/cloud-api.md §4.4, or `NONE`. */
  reason: string;
  /** The network's own words on a rejection (`rejection_info`), when it gave them. */
  rejectionInfo: { reason: string; recommendation: string } | null;
  at: number;
}

/**
 * The network changed a template's category (docs/cloud-api.md §3.6, `template_category_update`), by hand
 * or by its automated review. A notice of a change still to come is not one: it is logged.
 */
export interface TemplateCategoryEvent {
  kind: 'template_category';
  templateId: string;
  /** `MARKETING`, `UTILITY` or `AUTHENTICATION`. */
  category: string;
  at: number;
}

/**
 * The network's new quality rating of a template, from what its recipients do (docs/cloud-api.md §3.6,
 * `message_template_quality_update`): `GREEN`, `YELLOW`, `RED` or `UNKNOWN`.
 */
export interface TemplateQualityEvent {
  kind: 'template_quality';
  templateId: string;
  score: string;
  at: number;
}

/**
 * The network stopped a WhatsApp Business Account from starting conversations (docs/cloud-api.md §3.9,
 * `account_update`): restricted business-initiated messaging, disabled, or deleted it. Other account
 * updates are logged.
 */
export interface AccountRestrictionEvent {
  kind: 'account_restriction';
  wabaId: string;
  /** What the network did, in words a campaign's paused reason can carry. */
  reason: string;
  at: number;
}

/**
 * The network's word on a business number's quality or messaging limit (docs/cloud-api.md,
 * `phone_number_quality_update`): FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE, with its limit now.
 */
export interface NumberQualityEvent {
  kind: 'number_quality';
  /** The number, E.164 digits. */
  phone: string;
  event: string;
  /** `TIER_250` ... `TIER_UNLIMITED`, when said. */
  currentLimit: string | null;
  at: number;
}

/**
 * A user stopped or resumed a business number's marketing messages in WhatsApp's own settings
 * (docs/cloud-api.md §3.8, `user_preferences`): the network says so without any message being sent.
 */
export interface MarketingPreferenceEvent {
  kind: 'marketing_preference';
  phoneNumberId: string;
  /** The user's phone number (digits), unless the network withheld it (docs/cloud-api.md §10). */
  userPhone: string | null;
  /** The user's business-scoped user id, when the network gave one; with no phone, it names the user. */
  userId: string | null;
  value: 'stop' | 'resume';
  /** Epoch milliseconds. */
  at: number;
}

/**
 * Something in a body the gateway does not handle, and why (a change of a field it does not subscribe
 * to, a message that names no sender): logged by the route, never dropped silently.
 */
export interface IgnoredItem {
  kind: 'ignored';
  /** Where it was, e.g. `entry[0].changes[1]`. */
  at: string;
  /** What it was and why it is not handled. */
  reason: string;
  /** An item with an impossible value (webhook-fields.ts), not one the gateway merely has no use for. */
  refused?: true;
}

export type NetworkEvent =
  | InboundMessageEvent
  | StatusEvent
  | TemplateStatusEvent
  | TemplateCategoryEvent
  | TemplateQualityEvent
  | NumberQualityEvent
  | AccountRestrictionEvent
  | MarketingPreferenceEvent
  | IgnoredItem;
