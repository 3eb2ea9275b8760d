/**
 * The inbox (docs/inbox.md): an account's conversations, one per business number and user, each with its
 * thread of received and sent messages. Every query is scoped by account: another account's conversation
 * is not found.
 */
import type { InboundMessage } from './inbound.ts';
import type { SentMessage } from './messages.ts';

export const CONVERSATION_STATES = ['open', 'closed'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

export interface Conversation {
  id: string;
  accountId: string;
  businessPhone: string;
  /** The user's key: their phone number, or their business-scoped user id (ports/conversations.ts). */
  userPhone: string;
  /** The name the user's profile gave with their last message, if any. */
  profileName: string | null;
  /** One line of the newest message (domain/message-summary.ts). */
  preview: string;
  lastActivityAt: number;
  /** Messages the user sent since someone last opened the conversation. */
  unread: number;
  state: ConversationState;
  /** The portal user it is assigned to, or null. */
  assigneeId: string | null;
  updatedAt: number;
  /** When the user last wrote to the number (its 24-hour window), whatever the account; null: never. */
  lastInboundAt: number | null;
}

export interface InboxFilter {
  state?: ConversationState;
  /** A member's id, or `unassigned`. */
  assignee?: string;
  /** Words of the user's number or name, or of a message of the conversation. */
  search?: string;
}

/** The newest messages of a conversation both ways, each list newest first. */
export interface Thread {
  received: InboundMessage[];
  sent: SentMessage[];
  /** The email of the member who sent each reply from the inbox, by its `messageId` (clientMessageId). */
  authors: Map<string, string>;
}

/** A reply from the inbox: the conversation's new preview, and who sent it under which `messageId`. */
export interface InboxReplyRecord {
  preview: string;
  at: number;
  clientMessageId: string;
  authorId: string;
}

/** What a received message changes in its conversation: written once, when the message is published. */
export interface ReceivedInInbox {
  accountId: string;
  businessPhone: string;
  userPhone: string;
  profileName: string | null;
  preview: string;
  at: number;
}

export interface InboxStore {
  list(
    accountId: string,
    filter: InboxFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: Conversation[]; hasMore: boolean }>;
  find(accountId: string, id: string): Promise<Conversation | undefined>;
  /** Someone opened the conversation: nothing in it is unread any more. */
  markRead(accountId: string, id: string, at: number): Promise<void>;
  /** False when there is no such conversation in the account. */
  assign(accountId: string, id: string, assigneeId: string | null, at: number): Promise<boolean>;
  setState(accountId: string, id: string, state: ConversationState, at: number): Promise<boolean>;
  /**
   * The business answered from the inbox: the conversation moves up with the reply as its preview, and the
   * reply's author is kept (once, whatever a repeated form sends again).
   */
  recordReply(accountId: string, id: string, reply: InboxReplyRecord): Promise<void>;
  thread(accountId: string, businessPhone: string, userPhone: string, limit: number): Promise<Thread>;
  /**
   * A value that changes whenever something a reader of the inbox (`conversation` undefined) or of one
   * conversation's thread would see changes: what live updates compare.
   */
  version(accountId: string, conversation?: Conversation): Promise<string>;
  unreadTotal(accountId: string): Promise<number>;
}
