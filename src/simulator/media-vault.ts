/**
 * Media of the simulated network (docs/cloud-api.md §1.6, §5.2): what virtual users send and what businesses
 * upload, under a numeric Graph media id, in memory and in the state journal (one record per file, the
 * bytes in base64) so a restart keeps every id working. Bounded like the phone book: past
 * MAX_TOTAL_BYTES the oldest files are forgotten, as the real network forgets media after a while
 * (docs/cloud-api.md §3.4: ids expire after 7 days).
 */
import { createHash, randomInt } from 'node:crypto';
import type { StateJournal } from './state/journal.ts';

export interface StoredMedia {
  id: string;
  mimeType: string;
  bytes: Buffer;
  /** Hex SHA-256 of the bytes (the webhook and the media object carry it). */
  sha256: string;
}

export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

/** The journal's kind, keyed by media id; `seq` keeps the order files are forgotten in. */
export const MEDIA_KIND = 'media';

export interface MediaRecord {
  seq: number;
  id: string;
  mimeType: string;
  sha256: string;
  base64: string;
}

export class MediaVault {
  readonly #files = new Map<string, StoredMedia>();
  readonly #journal: StateJournal;
  #totalBytes = 0;
  #seq = 0;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The files a journal kept, oldest first (state/restore.ts). */
  restore(records: MediaRecord[]): void {
    for (const r of [...records].sort((a, b) => a.seq - b.seq)) {
      const bytes = Buffer.from(r.base64, 'base64');
      this.#files.set(r.id, { id: r.id, mimeType: r.mimeType, bytes, sha256: r.sha256 });
      this.#totalBytes += bytes.length;
      this.#seq = Math.max(this.#seq, r.seq);
    }
  }

  put(mimeType: string, bytes: Buffer): StoredMedia {
    // Graph media ids are numeric strings (docs/cloud-api.md §8); 16 digits starting with 9 never collide with a
    // phone-number id, which is at most 15 digits.
    let id: string;
    do id = `9${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e6)).padStart(6, '0')}`;
    while (this.#files.has(id));
    const media = { id, mimeType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    this.#files.set(id, media);
    this.#totalBytes += bytes.length;
    const seq = ++this.#seq;
    // The base64 text is made when the batch is written, and only if the file is still kept by then.
    this.#journal.put(MEDIA_KIND, id, () => ({
      seq,
      id,
      mimeType,
      sha256: media.sha256,
      base64: bytes.toString('base64'),
    }));
    for (const [oldId, old] of this.#files) {
      if (this.#totalBytes <= MAX_TOTAL_BYTES || oldId === id) break;
      this.#files.delete(oldId);
      this.#journal.remove(MEDIA_KIND, oldId);
      this.#totalBytes -= old.bytes.length;
    }
    return media;
  }

  get(id: string): StoredMedia | undefined {
    return this.#files.get(id);
  }

  delete(id: string): boolean {
    const media = this.#files.get(id);
    if (!media) return false;
    this.#files.delete(id);
    this.#journal.remove(MEDIA_KIND, id);
    this.#totalBytes -= media.bytes.length;
    return true;
  }
}
