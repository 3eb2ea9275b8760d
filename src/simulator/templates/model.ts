/**
 * A message template of the simulated network (docs/cloud-api.md §4): what the catalog stores, the create
 * validator produces, the review judges and a send fills in.
 */
import type { Json } from '../validate-fields.ts';

export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** The statuses the simulated review and edits produce (docs/cloud-api.md §4.4 lists more). */
export type TemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';

export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export type HeaderFormat = (typeof HEADER_FORMATS)[number];

export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

/** The one-time-password buttons the simulator draws (ZERO_TAP needs an app on a real device). */
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

export interface TemplateButton {
  type: ButtonType;
  text: string;
  url?: string;
  /** A URL button ending in `{{1}}`: a send must supply the suffix. */
  urlHasVariable: boolean;
  phoneNumber?: string;
  /** An OTP button (authentication templates): which button the phone draws, and the app a ONE_TAP fills. */
  otp?: { type: OtpType; autofillText?: string; packageName?: string };
}

/** A card of a media-card carousel (docs/cloud-api.md §4.3): its body and buttons; the header is a send's. */
export interface CarouselCard {
  body?: { text: string; variables: number };
  buttons: TemplateButton[];
}

/** The checked components: the wire shape (docs/cloud-api.md §4.2, upper case) and what sends need from it. */
export interface TemplateContent {
  components: Json[];
  header?: { format: HeaderFormat; text?: string; variables: number };
  body: { text: string; variables: number };
  footer?: string;
  buttons: TemplateButton[];
  /** A carousel template: every card's header has this format, and a send gives each card its media. */
  carousel?: { format: 'IMAGE' | 'VIDEO'; cards: CarouselCard[] };
}

export interface SimTemplate {
  /** 16 digits starting with 8: never a phone-number id (≤ 15 digits) or a media id (starts with 9). */
  id: string;
  /** Creation order in the network: list cursors point at it, so a deletion never breaks paging. */
  seq: number;
  wabaId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  content: TemplateContent;
  /** How long the network keeps trying to deliver a message of it (authentication templates only). */
  messageSendTtlSeconds?: number;
  /** Why the review rejected it (status REJECTED only). */
  rejection?: { reason: 'INVALID_FORMAT'; details: string; recommendation: string };
  /** Counts submissions (create, edits), so a review of an earlier version is dropped. */
  submission: number;
  /** When edits of the APPROVED template happened (epoch ms), for the 24 h / 30 day limits. */
  approvedEdits: number[];
  /** Its quality rating, as last posted (quality-control.ts); absent: `UNKNOWN`. */
  quality?: 'GREEN' | 'YELLOW' | 'RED';
}
