/**
 * The 24-hour customer-service window (docs/cloud-api.md §7): it opens or restarts whenever a user writes to a
 * business number; while open the business may send anything, afterwards only templates. The network
 * tracks it per (phone-number id, user); the conversation id of the status webhooks (docs/cloud-api.md §3.5)
 * follows the window, so every message of one window carries the same one.
 */
import { createHash } from 'node:crypto';
import type { StateJournal } from './state/journal.ts';

export const WINDOW_MS = 24 * 3600 * 1000;
/** Past this many tracked pairs, closed windows are swept so memory stays bounded. */
const SWEEP_ABOVE = 50_000;

export interface Conversation {
  id: string;
  /** Epoch milliseconds when the window closes. */
  expiresAt: number;
}

export interface Window {
  openedAt: number;
  lastInboundAt: number;
}

/** The journal's kind: one record per (business, user) pair, keyed `<business>:<user>`. */
export const WINDOW_KIND = 'window';

export class WindowTracker {
  readonly #windows = new Map<string, Window>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The windows a journal kept (state/restore.ts). */
  restore(records: { key: string; value: Window }[]): void {
    for (const { key, value } of records) this.#windows.set(key, value);
  }

  recordInbound(business: string, user: string, at: number): void {
    const key = `${business}:${user}`;
    const current = this.#windows.get(key);
    const stillOpen = current !== undefined && at - current.lastInboundAt < WINDOW_MS;
    const window = { openedAt: stillOpen ? current.openedAt : at, lastInboundAt: at };
    this.#windows.set(key, window);
    this.#journal.put(WINDOW_KIND, key, window);
    if (this.#windows.size > SWEEP_ABOVE) this.#sweep(at);
  }

  /** The open conversation of this pair at `now`, or null when the window is closed. */
  conversation(business: string, user: string, now: number): Conversation | null {
    const window = this.#windows.get(`${business}:${user}`);
    if (!window || now - window.lastInboundAt >= WINDOW_MS) return null;
    const id = createHash('sha256')
      .update(`${business}:${user}:${window.openedAt}`)
      .digest('hex')
      .slice(0, 32);
    return { id, expiresAt: window.lastInboundAt + WINDOW_MS };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now - window.lastInboundAt < WINDOW_MS) continue;
      this.#windows.delete(key);
      this.#journal.remove(WINDOW_KIND, key);
    }
  }
}
