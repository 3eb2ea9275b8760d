/**
 * The templates store: message templates of an account and the files uploaded for their headers, in the
 * domain's terms (src/store/templates-repo.ts maps its rows). Every read a client can cause is scoped by
 * account; `findByNetworkId` is unscoped because the network's review webhooks carry only the template's id.
 */

export interface Template {
  /** The network's template id. */
  id: string;
  accountId: string;
  /** The business or sandbox number (E.164 digits). */
  phone: string;
  name: string;
  /** The name the network knows (differs from `name` on the shared sandbox number only). */
  networkName: string;
  language: string;
  category: string;
  status: string;
  rejectedReason: string;
  /** Why, in the network's words, while the template is rejected. */
  rejectionInfo: RejectionInfo | null;
  /** JSON `{score, date}` as listed. */
  qualityScore: string;
  /** JSON array of components in the network's upper-case shape. */
  components: string;
  /** JSON array of epoch ms of edits made while APPROVED (the network allows one a day, ten a month). */
  editTimes: string;
  createdAt: number;
  updatedAt: number;
}

/** A file uploaded for a template's media header; `handle` is what a create request names. */
export interface TemplateMedia {
  handle: string;
  accountId: string;
  mimeType: string;
  size: number;
  sha256: string;
  createdAt: number;
}

export interface TemplateFilters {
  status?: string;
  name?: string;
  language?: string;
}

/** What the network said about a template, applied with its `template.status` event in one transaction. */
/** The network's own words on a rejection (`rejection_info`, docs/cloud-api.md §3.6). */
export interface RejectionInfo {
  reason: string;
  recommendation: string;
}

export interface TemplateReview {
  status: string;
  reason: string;
  /** Given with a rejection only, when the network gave it. */
  info: RejectionInfo | null;
  at: number;
}

/** A header file written as it arrived, or refused past its limit (then no file is left; `size` was read). */
export type MediaWrite = { ok: true; media: TemplateMedia } | { ok: false; size: number };

export interface TemplatesStore {
  /**
   * Stores a new template; fails (throws) when the account has one of that name and language on the number.
   * A verdict of the network that arrived before it (see `applyReview`) is applied with it.
   */
  insert(template: Template): Promise<{ template: Template; eventId: string | null }>;
  findOfAccount(accountId: string, id: string): Promise<Template | undefined>;
  findByNetworkId(id: string): Promise<Template | undefined>;
  findByName(accountId: string, phone: string, name: string, language: string): Promise<Template | undefined>;
  /** Newest first. */
  list(accountId: string, phone: string, filters?: TemplateFilters): Promise<Template[]>;
  remove(accountId: string, ids: readonly string[]): Promise<void>;
  /** An accepted edit: new content, back to PENDING, and its `template.status` event, together. */
  recordEdit(
    accountId: string,
    id: string,
    edit: { category: string; components: string; editTimes: number[]; at: number },
  ): Promise<string | null>;
  /**
   * The network's verdict and its event together; null when nothing changed, or when no template has that
   * id: the verdict is then kept for `insert`, since it may have overtaken the create that asked for it.
   */
  applyReview(
    id: string,
    review: TemplateReview,
  ): Promise<{ template: Template; eventId: string | null } | null>;
  /**
   * The network's new category for a template and its `template.category` event together; null when the
   * template is not stored here or already has that category (a repeated webhook changes nothing).
   */
  applyCategory(
    id: string,
    change: { category: string; at: number },
  ): Promise<{ eventId: string | null } | null>;
  /** The network's new quality rating of a template; false when not stored here or rated so already. */
  applyQuality(id: string, change: { score: string; at: number }): Promise<boolean>;
  /**
   * Writes a header file as its bytes arrive, refusing it past `maxBytes` (the rest of the source is read
   * and discarded, so the request completes), then records it: a handle never names a missing file.
   */
  writeMedia(
    accountId: string,
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
    mimeType: string,
  ): Promise<MediaWrite>;
  /** Forgets a header file: the record first (no handle may name a missing file), then the bytes. */
  removeMedia(accountId: string, handle: string): Promise<void>;
  /** Bytes of header files the account keeps: what its storage quota counts. */
  mediaBytesOfAccount(accountId: string): Promise<number>;
  findMedia(accountId: string, handle: string): Promise<TemplateMedia | undefined>;
}
