/**
 * The 24-hour customer-service window (docs/cloud-api.md §7): it opens or restarts whenever a user writes to a
 * business number; while open the business may send anything, afterwards only templates. The network
 * tracks it per (phone-number id, user); the conversation id of the status webhooks (docs/cloud-api.md §3.5)
 * follows the window, so every message of one window carries the same one.
 */
import { createHash } from 'node:crypto';

export const WINDOW_MS = 24 * 3600 * 1000;
/** Past this many tracked pairs, closed windows are swept so memory stays bounded. */
const SWEEP_ABOVE = 50_000;

export interface Conversation {
  id: string;
  /** Epoch milliseconds when the window closes. */
  expiresAt: number;
}

interface Window {
  openedAt: number;
  lastInboundAt: number;
}

export class WindowTracker {
  readonly #windows = new Map<string, Window>();

  recordInbound(business: string, user: string, at: number): void {
    const key = `${business}:${user}`;
    const current = this.#windows.get(key);
    const stillOpen = current !== undefined && at - current.lastInboundAt < WINDOW_MS;
    this.#windows.set(key, { openedAt: stillOpen ? current.openedAt : at, lastInboundAt: at });
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
      if (now - window.lastInboundAt >= WINDOW_MS) this.#windows.delete(key);
    }
  }
}
