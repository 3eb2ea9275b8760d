/**
 * The virtual phones: what each simulated user received from business numbers and what the user sent,
 * newest last. In memory on purpose (docs/adr/0003): the simulator stands in for a remote network, and a
 * restart is a fresh network. Memory is bounded: each phone keeps its last MAX_MESSAGES_PER_PHONE
 * messages each way, and past MAX_PHONES the phone idle the longest is forgotten.
 *
 * Listeners (the phone page's live stream, phone/events.ts) hear each message a phone receives or sends
 * and each status change of those messages. At most MAX_LISTENERS_PER_PHONE per phone and
 * MAX_LISTENERS in all, so open pages cannot grow memory without bound.
 */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface ReceivedMessage {
  id: string;
  /** Business number (E.164 digits). */
  from: string;
  type: string;
  interactiveType?: string;
  rendered: string;
  /** The Cloud API message as the business sent it: `{type, [type]: {...}, context?}`. */
  content: Record<string, unknown>;
  status: DeliveryStatus;
  /** ISO 8601, when the network accepted the message. */
  timestamp: string;
  /** Why a failed message never reached the phone (webhook error form, docs/cloud-api.md §2.2). */
  error?: { code: number; title: string; details: string };
}

/** A message the virtual user sent to a business: `content` is the inbound `messages[]` item's content. */
export interface SentMessage {
  id: string;
  /** Business number (E.164 digits). */
  to: string;
  type: string;
  rendered: string;
  content: Record<string, unknown>;
  /** `sent` when the network took it, `delivered` once the business's webhook accepted it, `read` when the business marked it read. */
  status: Exclude<DeliveryStatus, 'failed'>;
  timestamp: string;
}

export type PhoneEvent =
  | { kind: 'received'; message: ReceivedMessage }
  | { kind: 'sent'; message: SentMessage }
  | { kind: 'status'; direction: 'received' | 'sent'; message: ReceivedMessage | SentMessage }
  /** The business is writing (a read receipt with a typing indicator): shown for `seconds` at most. */
  | { kind: 'typing'; business: string; seconds: number };

/** How long the phone shows "typing…" after a typing indicator, unless a message comes first (Meta: 25 s). */
export const TYPING_SECONDS = 25;

export type PhoneListener = (event: PhoneEvent) => void;

export const MAX_MESSAGES_PER_PHONE = 500;
export const MAX_PHONES = 10_000;
export const MAX_LISTENERS_PER_PHONE = 8;
export const MAX_LISTENERS = 500;

/** Status only moves forward (docs/cloud-api.md §3.5: read ⊇ delivered ⊇ sent); failed is terminal. */
const RANK: Record<DeliveryStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

export function advance(message: ReceivedMessage, status: DeliveryStatus): void {
  if (message.status === 'failed') return;
  if (RANK[status] > RANK[message.status]) message.status = status;
}

interface Phone {
  received: ReceivedMessage[];
  sent: SentMessage[];
}

function keepLast<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_MESSAGES_PER_PHONE) list.splice(0, list.length - MAX_MESSAGES_PER_PHONE);
}

export class PhoneBook {
  readonly #phones = new Map<string, Phone>();
  readonly #listeners = new Map<string, Set<PhoneListener>>();
  #listenerCount = 0;

  /** The phone of `user`, marked as the most recently used (a Map keeps insertion order for eviction). */
  #touch(user: string): Phone {
    const phone = this.#phones.get(user) ?? { received: [], sent: [] };
    this.#phones.delete(user);
    this.#phones.set(user, phone);
    if (this.#phones.size > MAX_PHONES) {
      const oldest = this.#phones.keys().next().value;
      if (oldest !== undefined) this.#phones.delete(oldest);
    }
    return phone;
  }

  deliver(user: string, message: ReceivedMessage): void {
    keepLast(this.#touch(user).received, message);
    this.#emit(user, { kind: 'received', message });
  }

  recordSent(user: string, message: SentMessage): void {
    keepLast(this.#touch(user).sent, message);
    this.#emit(user, { kind: 'sent', message });
  }

  /** Moves a received message's status forward (see advance) and tells the listeners when it moved. */
  setStatus(user: string, message: ReceivedMessage, status: DeliveryStatus): void {
    const before = message.status;
    advance(message, status);
    if (message.status !== before) this.#emit(user, { kind: 'status', direction: 'received', message });
  }

  /** Moves the status of a message the user sent forward, found by id (unknown or forgotten ids are ignored). */
  /** The business `business` shows the user it is writing; nothing is stored (it is gone in 25 s). */
  typing(user: string, business: string): void {
    this.#emit(user, { kind: 'typing', business, seconds: TYPING_SECONDS });
  }

  setSentStatus(user: string, id: string, status: SentMessage['status']): void {
    const message = this.#phones.get(user)?.sent.find((m) => m.id === id);
    if (!message || RANK[status] <= RANK[message.status]) return;
    message.status = status;
    this.#emit(user, { kind: 'status', direction: 'sent', message });
  }

  /** Oldest first, newest last. */
  received(user: string): readonly ReceivedMessage[] {
    return this.#phones.get(user)?.received ?? [];
  }

  /** What the user sent, oldest first. */
  sent(user: string): readonly SentMessage[] {
    return this.#phones.get(user)?.sent ?? [];
  }

  /**
   * Calls `listener` for every event of `user`'s phone until the returned function is called; undefined
   * when the limits of listeners are reached.
   */
  subscribe(user: string, listener: PhoneListener): (() => void) | undefined {
    const set = this.#listeners.get(user) ?? new Set<PhoneListener>();
    if (set.size >= MAX_LISTENERS_PER_PHONE || this.#listenerCount >= MAX_LISTENERS) return undefined;
    set.add(listener);
    this.#listeners.set(user, set);
    this.#listenerCount++;
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      set.delete(listener);
      this.#listenerCount--;
      if (set.size === 0) this.#listeners.delete(user);
    };
  }

  #emit(user: string, event: PhoneEvent): void {
    const set = this.#listeners.get(user);
    if (!set) return;
    // A copy: a listener may unsubscribe (its stream closed) while the event is being handed out.
    for (const listener of [...set]) listener(event);
  }
}
