/**
 * The virtual phones: what each simulated user received from business numbers, newest last. In memory
 * on purpose (docs/adr/0003): the simulator stands in for a remote network, and a restart is a fresh
 * network. Memory is bounded: each phone keeps its last MAX_MESSAGES_PER_PHONE messages, and past
 * MAX_PHONES the phone idle the longest is forgotten.
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
  /** Why a failed message never reached the phone (webhook error form, reference §2.2). */
  error?: { code: number; title: string; details: string };
}

export const MAX_MESSAGES_PER_PHONE = 500;
export const MAX_PHONES = 10_000;

/** Status only moves forward (reference §3.5: read ⊇ delivered ⊇ sent); failed is terminal. */
const RANK: Record<DeliveryStatus, number> = { sent: 1, delivered: 2, read: 3, failed: 4 };

export function advance(message: ReceivedMessage, status: DeliveryStatus): void {
  if (message.status === 'failed') return;
  if (RANK[status] > RANK[message.status]) message.status = status;
}

export class PhoneBook {
  readonly #phones = new Map<string, ReceivedMessage[]>();

  deliver(user: string, message: ReceivedMessage): void {
    const list = this.#phones.get(user) ?? [];
    // Re-inserting keeps the Map in least-recently-used order for eviction.
    this.#phones.delete(user);
    this.#phones.set(user, list);
    list.push(message);
    if (list.length > MAX_MESSAGES_PER_PHONE) list.splice(0, list.length - MAX_MESSAGES_PER_PHONE);
    if (this.#phones.size > MAX_PHONES) {
      const oldest = this.#phones.keys().next().value;
      if (oldest !== undefined) this.#phones.delete(oldest);
    }
  }

  /** Oldest first, newest last. */
  received(user: string): readonly ReceivedMessage[] {
    return this.#phones.get(user) ?? [];
  }
}
