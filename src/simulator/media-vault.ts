/**
 * Media that virtual users send (docs/cloud-api.md §1.6, §5.2): kept in memory under a numeric Graph media id until
 * the business downloads it. Bounded like the phone book: past MAX_TOTAL_BYTES the oldest files are
 * forgotten, as the real network forgets media after a while (docs/cloud-api.md §3.4: ids expire after 7 days).
 */
import { createHash, randomInt } from 'node:crypto';

export interface StoredMedia {
  id: string;
  mimeType: string;
  bytes: Buffer;
  /** Hex SHA-256 of the bytes (the webhook and the media object carry it). */
  sha256: string;
}

export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;

export class MediaVault {
  readonly #files = new Map<string, StoredMedia>();
  #totalBytes = 0;

  put(mimeType: string, bytes: Buffer): StoredMedia {
    // Graph media ids are numeric strings (docs/cloud-api.md §8); 16 digits starting with 9 never collide with a
    // phone-number id, which is at most 15 digits.
    let id: string;
    do id = `9${String(randomInt(1e9)).padStart(9, '0')}${String(randomInt(1e6)).padStart(6, '0')}`;
    while (this.#files.has(id));
    const media = { id, mimeType, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    this.#files.set(id, media);
    this.#totalBytes += bytes.length;
    for (const [oldId, old] of this.#files) {
      if (this.#totalBytes <= MAX_TOTAL_BYTES || oldId === id) break;
      this.#files.delete(oldId);
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
    this.#totalBytes -= media.bytes.length;
    return true;
  }
}
