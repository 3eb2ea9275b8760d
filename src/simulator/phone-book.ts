/**
 * The virtual phones: what each simulated user received from business numbers and what the user sent,
 * newest last. Worked on in memory and noted in the state journal (state/journal.ts), one record per
 * message, so a restart brings every chat back (state/restore.ts). Bounded: each phone keeps its last
 * MAX_MESSAGES_PER_PHONE messages each way, and past MAX_PHONES the phone idle the longest is forgotten.
 *
 * Listeners (the phone page's live stream, phone/events.ts) hear each message a phone receives or sends
 * and each status change of those messages. At most MAX_LISTENERS_PER_PHONE per phone and
 * MAX_LISTENERS in all, so open pages cannot grow memory without bound.
 */
import type { StateJournal } from './state/journal.ts';
import type { FilledTemplate } from './templates/filled-template.ts';

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface ReceivedMessage {
  id: string;
  /** Business number (E.164 digits). */
  from: string;
  type: string;
  interactiveType?: string;
  rendered: string;
  /** A template message: the template with the send's parameters filled in, as the phone page draws it. */
  template?: FilledTemplate;
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

/** The journal's kinds: a message the phone received from a business, and one its user sent. */
export const RECEIVED_KIND = 'phone.received';
export const SENT_KIND = 'phone.sent';

/** How a message is kept in the journal: its phone, and its place among every phone's messages. */
export interface PhoneRecord<M> {
  user: string;
  seq: number;
  message: M;
}

type Direction = 'received' | 'sent';

export class PhoneBook {
  readonly #phones = new Map<string, Phone>();
  readonly #listeners = new Map<string, Set<PhoneListener>>();
  readonly #journal: StateJournal;
  /** Each message's place in arrival order, which a restart restores (messages are never shared). */
  readonly #seqOf = new WeakMap<object, number>();
  #seq = 0;
  #listenerCount = 0;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  /** The phone of `user`, marked as the most recently used (a Map keeps insertion order for eviction). */
  #touch(user: string): Phone {
    const phone = this.#phones.get(user) ?? { received: [], sent: [] };
    this.#phones.delete(user);
    this.#phones.set(user, phone);
    if (this.#phones.size > MAX_PHONES) {
      const oldest = this.#phones.keys().next().value;
      if (oldest !== undefined) this.#forget(oldest);
    }
    return phone;
  }

  #forget(user: string): void {
    const phone = this.#phones.get(user);
    this.#phones.delete(user);
    for (const m of phone?.received ?? []) this.#journal.remove(RECEIVED_KIND, `${user}/${m.id}`);
    for (const m of phone?.sent ?? []) this.#journal.remove(SENT_KIND, `${user}/${m.id}`);
  }

  /** Appends to the phone's list, forgetting the oldest past the limit, and notes both in the journal. */
  #keep<M extends ReceivedMessage | SentMessage>(user: string, direction: Direction, message: M): void {
    const phone = this.#touch(user);
    const list = (direction === 'received' ? phone.received : phone.sent) as M[];
    const kind = direction === 'received' ? RECEIVED_KIND : SENT_KIND;
    if (!this.#seqOf.has(message)) this.#seqOf.set(message, ++this.#seq);
    list.push(message);
    this.#save(user, direction, message);
    if (list.length <= MAX_MESSAGES_PER_PHONE) return;
    for (const old of list.splice(0, list.length - MAX_MESSAGES_PER_PHONE)) {
      this.#journal.remove(kind, `${user}/${old.id}`);
    }
  }

  #save(user: string, direction: Direction, message: ReceivedMessage | SentMessage): void {
    const record: PhoneRecord<typeof message> = { user, seq: this.#seqOf.get(message) ?? 0, message };
    this.#journal.put(direction === 'received' ? RECEIVED_KIND : SENT_KIND, `${user}/${message.id}`, record);
  }

  /** Brings back the messages a journal kept, in the order they first arrived (state/restore.ts). */
  restore(received: PhoneRecord<ReceivedMessage>[], sent: PhoneRecord<SentMessage>[]): void {
    const all = [
      ...received.map((r) => ({ ...r, direction: 'received' as const })),
      ...sent.map((r) => ({ ...r, direction: 'sent' as const })),
    ].sort((a, b) => a.seq - b.seq);
    for (const { user, seq, message, direction } of all) {
      const phone = this.#touch(user);
      this.#seqOf.set(message, seq);
      this.#seq = Math.max(this.#seq, seq);
      if (direction === 'received') phone.received.push(message as ReceivedMessage);
      else phone.sent.push(message as SentMessage);
    }
  }

  /** A received message by id, for the parts that pick up where a restart left them. */
  findReceived(user: string, id: string): ReceivedMessage | undefined {
    return this.#phones.get(user)?.received.find((m) => m.id === id);
  }

  deliver(user: string, message: ReceivedMessage): void {
    this.#keep(user, 'received', message);
    this.#emit(user, { kind: 'received', message });
  }

  recordSent(user: string, message: SentMessage): void {
    this.#keep(user, 'sent', message);
    this.#emit(user, { kind: 'sent', message });
  }

  /** Moves a received message's status forward (see advance) and tells the listeners when it moved. */
  setStatus(user: string, message: ReceivedMessage, status: DeliveryStatus): void {
    const before = message.status;
    advance(message, status);
    if (message.status === before) return;
    this.#save(user, 'received', message);
    this.#emit(user, { kind: 'status', direction: 'received', message });
  }

  /** The business `business` shows the user it is writing; nothing is stored (it is gone in 25 s). */
  typing(user: string, business: string): void {
    this.#emit(user, { kind: 'typing', business, seconds: TYPING_SECONDS });
  }

  /** Moves the status of a message the user sent forward, found by id (unknown or forgotten ids are ignored). */
  setSentStatus(user: string, id: string, status: SentMessage['status']): void {
    const message = this.#phones.get(user)?.sent.find((m) => m.id === id);
    if (!message || RANK[status] <= RANK[message.status]) return;
    message.status = status;
    this.#save(user, 'sent', message);
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
