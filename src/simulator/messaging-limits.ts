/**
 * The messaging limit of a business number (docs/cloud-api.md §7, "Messaging limit"): how many unique
 * users it may reach outside a customer-service window in a moving 24 hours. Meta sets it per business
 * portfolio; in the simulator each number is its own WABA and portfolio (README.md), so per number.
 *
 * A user is reached when a template from the number arrives while that user's window with it is closed
 * (window-tracker.ts); another such template within 24 hours is not a new user. Past the limit, the
 * network still takes a template to a new user (200 and a message id) but never hands it over: its only
 * status is `failed` (routes-graph.ts). Meta documents no code for this, so which one the simulator posts
 * is its own choice (graph-errors.ts, MESSAGING_LIMIT_CODE).
 *
 * The limit and the users reached are kept in the state journal, so a restart changes neither.
 */
import type { MessagingLimit } from '../lib/messaging-tiers.ts';
import type { StateJournal } from './state/journal.ts';
import { WINDOW_MS } from './window-tracker.ts';

/** The journal's kind for a number's limit, keyed by the number; no record = unlimited (the default). */
export const MESSAGING_LIMIT_KIND = 'messaging-limit';
/** The journal's kind for a user reached, keyed `<business>:<user>`, holding when (epoch ms). */
export const REACHED_KIND = 'messaging-reached';

/**
 * Users kept per number, at most: the highest finite limit. A number without a limit may reach more, but
 * counting past this would only cost memory: any limit set later refuses a new user as soon as this many
 * were reached, and the ones kept are the newest, so the count stays right up to it.
 */
const MAX_TRACKED = 100_000;

export class MessagingLimits {
  readonly #limits = new Map<string, number>();
  /** Per number, the users reached and when, oldest first (a user reached again moves to the end). */
  readonly #reached = new Map<string, Map<string, number>>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** What a journal kept (state/restore.ts). */
  restore(limits: { key: string; value: number }[], reached: { key: string; value: number }[]): void {
    for (const { key, value } of limits) this.#limits.set(key, value);
    const byTime = [...reached].sort((a, b) => a.value - b.value);
    for (const { key, value } of byTime) {
      const at = key.lastIndexOf(':');
      if (at > 0) this.#usersOf(key.slice(0, at)).set(key.slice(at + 1), value);
    }
  }

  limitOf(business: string): MessagingLimit {
    return (this.#limits.get(business) ?? null) as MessagingLimit;
  }

  setLimit(business: string, limit: MessagingLimit): void {
    if (limit === null) {
      if (this.#limits.delete(business)) this.#journal.remove(MESSAGING_LIMIT_KIND, business);
      return;
    }
    this.#limits.set(business, limit);
    this.#journal.put(MESSAGING_LIMIT_KIND, business, limit);
  }

  /** Unique users the number reached in the 24 hours before `now`. */
  used(business: string, now: number): number {
    const users = this.#reached.get(business);
    if (!users) return 0;
    this.#expire(business, users, now);
    return users.size;
  }

  /**
   * Counts `user` as reached by `business` at `now` when the limit allows it (a user already reached in
   * the last 24 hours always is); answers the limit the user would go past otherwise.
   */
  reach(business: string, user: string, now: number): number | undefined {
    const kept = this.#reached.get(business);
    if (kept) this.#expire(business, kept, now);
    const users = this.#usersOf(business);
    const limit = this.#limits.get(business);
    const known = users.delete(user);
    if (!known && limit !== undefined && users.size >= limit) return limit;
    users.set(user, now);
    this.#journal.put(REACHED_KIND, `${business}:${user}`, now);
    if (users.size > MAX_TRACKED) this.#forgetOldest(business, users);
    return undefined;
  }

  #usersOf(business: string): Map<string, number> {
    let users = this.#reached.get(business);
    if (!users) {
      users = new Map();
      this.#reached.set(business, users);
    }
    return users;
  }

  /** Forgets the users reached 24 hours or more before `now`: they are oldest first, so it stops early. */
  #expire(business: string, users: Map<string, number>, now: number): void {
    for (const [user, at] of users) {
      if (now - at < WINDOW_MS) break;
      users.delete(user);
      this.#journal.remove(REACHED_KIND, `${business}:${user}`);
    }
    if (users.size === 0) this.#reached.delete(business);
  }

  #forgetOldest(business: string, users: Map<string, number>): void {
    const [oldest] = users.keys();
    if (oldest === undefined) return;
    users.delete(oldest);
    this.#journal.remove(REACHED_KIND, `${business}:${oldest}`);
  }
}
