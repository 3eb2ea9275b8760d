/** The tables of message templates, of the store's schema (src/store/schema.ts). */

export interface TemplatesTable {
  /** The network's template id. */
  id: string;
  account_id: string;
  /** The business or sandbox number (E.164 digits). */
  phone: string;
  name: string;
  /** The name the network knows (differs from `name` on the shared sandbox number only). */
  network_name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason: string;
  /** JSON `{reason, recommendation}`: the network's words on a rejection, when it gave them. */
  rejection_info: string | null;
  /** JSON `{score, date}` as listed (docs/contract.md §5). */
  quality_score: string;
  /** JSON array of components in the network's upper-case shape. */
  components: string;
  /** JSON array of epoch ms of edits made while APPROVED (the network allows one a day, ten a month). */
  edit_times: string;
  created_at: number;
  updated_at: number;
}

/** A network verdict on a template id not stored yet (src/store/templates-repo.ts, `applyReview`). */
export interface EarlyTemplateReviewsTable {
  template_id: string;
  status: string;
  reason: string;
  rejection_info: string | null;
  at: number;
}

/** A file uploaded for a template's media header; `handle` is what a create request names. */
export interface TemplateMediaTable {
  handle: string;
  account_id: string;
  mime_type: string;
  size: number;
  sha256: string;
  /** Path relative to DATA_DIR. */
  path: string;
  created_at: number;
}
