/** What uploading media to send (src/domain/outbound-media.ts) needs from the store, in domain terms. */

/** A file the business uploaded to the network, to send by id. */
export interface OutboundMedia {
  /** The gateway's id (`upl_…`): what clients name; the network's id stays inside. */
  id: string;
  accountId: string;
  /** The number it was uploaded for (digits): the network lets that number send it. */
  phone: string;
  networkMediaId: string;
  /** IMAGE, VIDEO, AUDIO, DOCUMENT or STICKER: what a send of it must say. */
  mediaType: string;
  mimeType: string;
  size: number;
  createdAt: number;
}

/** A file spooled to local storage on its way to the network; gone once `discard` is called. */
export type Spooled = { ok: true; path: string; size: number } | { ok: false; size: number };

export interface OutboundMediaStore {
  /** Writes the upload to a new local file as it arrives, up to `maxBytes` (past it: no file, `ok: false`). */
  spool(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Spooled>;
  discard(path: string): Promise<void>;
  /**
   * Removes spooled files last written before `before` (epoch ms): what an upload left when its process was
   * killed mid-way. Returns how many.
   */
  discardStale(before: number): Promise<number>;
  insertOutboundMedia(media: OutboundMedia): Promise<void>;
  findOutboundMedia(accountId: string, id: string): Promise<OutboundMedia | undefined>;
  /** Forgets the account's upload; returns whether there was one. */
  deleteOutboundMedia(accountId: string, id: string): Promise<boolean>;
}
