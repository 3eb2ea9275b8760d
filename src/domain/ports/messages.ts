/**
 * The messages store: sent messages with their deduplication claim, network id and status history, in the
 * domain's terms (src/store/messages-repo.ts maps its rows).
 */
import type { MessageStatus } from '../message-status.ts';

export interface SentMessage {
  id: string;
  accountId: string;
  /** The client's `messageId`: unique per account, forever. */
  clientMessageId: string;
  /** SHA-256 of the canonical request: tells a replay from a conflicting reuse of a messageId. */
  requestHash: string;
  kind: string;
  fromPhone: string;
  toPhone: string;
  /** The normalized content, as canonical JSON. */
  content: string;
  waId: string | null;
  status: string;
  /** Orders statuses so a late network status never moves a message backwards. */
  statusRank: number;
  /** The stored error as JSON (see StoredError in ../unknown-outcomes.ts), or null. */
  error: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What a status event says of its message: the fields that never change once it is sent. */
export type StatusSubject = Pick<
  SentMessage,
  'accountId' | 'clientMessageId' | 'waId' | 'fromPhone' | 'toPhone'
>;

/** A sent message by its id, with what the event of its outcome says of it. */
export type OutcomeSubject = Pick<SentMessage, 'id'> & Omit<StatusSubject, 'waId'>;

/** What a send claims before it calls the network: the message without its outcome yet. */
export type MessageClaim = Omit<SentMessage, 'status' | 'statusRank' | 'waId' | 'error'>;

/** One step of a message's status history. */
export interface StatusStep {
  status: string;
  at: number;
  error: string | null;
}

/** The business number a status came for: its phone, and its account (null: the sandbox, shared by all). */
export interface StatusSender {
  phone: string;
  accountId: string | null;
}

/** Messages whose outcome is still open (docs/adr/0013-settling-unknown-outcomes.md). */
export interface UnsettledStore {
  /** Records why the outcome is unknown; false when the message was settled or marked already. */
  markUnknown(id: string, at: number, error: string): Promise<boolean>;
  /** The open message a status names by its opaque id, if it was sent from `sender`'s number. */
  findOpenFor(id: string, sender: StatusSender): Promise<SentMessage | undefined>;
  /** A status named the open message `id`: the network took it as `waId`. Returns whether it moved. */
  settleFromNetwork(id: string, sender: StatusSender, waId: string, at: number): Promise<boolean>;
  /** Abandoned claims and unknown outcomes due for the sweep, oldest first. */
  listUnsettled(abandonedBefore: number, unknownBefore: number, limit: number): Promise<SentMessage[]>;
  /** No status report settled the unknown outcome in time: FAILED. */
  failUnsettled(id: string, at: number, error: string): Promise<boolean>;
}

export interface MessagesStore extends UnsettledStore {
  /**
   * Claims the claim's `clientMessageId` for its account. Returns null when the claim is ours, otherwise the
   * message that holds it; two nodes racing on one id cannot both win.
   */
  reserve(claim: MessageClaim): Promise<SentMessage | null>;
  findByClientId(accountId: string, clientMessageId: string): Promise<SentMessage | undefined>;
  /** The message the network knows by this id (unscoped: the network's reports carry only the id). */
  findByNetworkId(waId: string): Promise<SentMessage | undefined>;
  /** Gives a claim back when the network surely did not take the message, so the client may retry. */
  release(id: string): Promise<void>;
  /** The network accepted the message: records its id, then applies any status that outran the answer. */
  markAccepted(message: OutcomeSubject, waId: string, at: number): Promise<void>;
  markFailed(message: OutcomeSubject, at: number, error: string): Promise<void>;
  /**
   * A status from the network; unknown ids are kept until the send that owns them records its id. Returns
   * whether a message has this network id.
   */
  /**
   * `network`: the network's status object as it arrived, which the status's event carries (serialized
   * only when the status moves the message or waits for it).
   */
  applyNetworkStatus(
    waId: string,
    status: MessageStatus,
    at: number,
    error: string | null,
    network?: Record<string, unknown>,
  ): Promise<boolean>;
  /** The status history in status order. */
  timeline(messageId: string): Promise<StatusStep[]>;
}
