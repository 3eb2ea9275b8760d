/**
 * The inbox (docs/inbox.md): the conversations customers start by writing to one of the account's
 * numbers, each read as one thread of what was received and sent, assigned to a member, open or closed.
 * The portal calls these; the rules are here so that another client of the inbox keeps them.
 */
import { GatewayError } from '../errors.ts';
import type { InboundMessage } from '../ports/inbound.ts';
import {
  CONVERSATION_STATES,
  type Conversation,
  type ConversationState,
  type InboxStore,
} from '../ports/inbox.ts';
import type { SentMessage } from '../ports/messages.ts';
import type { Member } from '../ports/portal.ts';
import { canOpen } from '../roles.ts';
import { WINDOW_MS } from '../send-message.ts';

/** How many of the newest messages of each direction a thread shows. */
export const THREAD_LIMIT = 100;

export interface InboxDeps {
  inbox: InboxStore;
  /** The account's members, of whom those who may open the inbox take conversations. */
  members(accountId: string): Promise<Member[]>;
  now?: () => number;
}

/** One message of a thread, in either direction, oldest first when listed. */
export type ThreadEntry =
  | { direction: 'in'; at: number; message: InboundMessage }
  | {
      direction: 'out';
      at: number;
      message: SentMessage /** The member who sent it from the inbox. */;
      author?: string;
    };

/** Whether free-form messages may be sent: the user wrote within 24 hours; until when. */
export type ReplyWindow = { open: true; closesAt: number } | { open: false; lastInboundAt: number | null };

export interface OpenedConversation {
  conversation: Conversation;
  entries: ThreadEntry[];
  window: ReplyWindow;
}

const now = (deps: InboxDeps) => (deps.now ?? Date.now)();

export async function conversationOf(deps: InboxDeps, accountId: string, id: string): Promise<Conversation> {
  const conversation = await deps.inbox.find(accountId, id);
  if (!conversation) throw new GatewayError('not_found', 'There is no such conversation in your account.');
  return conversation;
}

/** The conversation's 24-hour window at `at` (docs/contract.md: free-form messages only inside it). */
export function replyWindow(conversation: Conversation, at: number): ReplyWindow {
  const last = conversation.lastInboundAt;
  if (last !== null && last + WINDOW_MS > at) return { open: true, closesAt: last + WINDOW_MS };
  return { open: false, lastInboundAt: last };
}

/**
 * Where a received message stands in time, to the millisecond. The network dates messages to the second;
 * within that second the moment the gateway handled it decides, but never past the second's end. The key
 * is never before the message was sent (it was handled after) nor after it was handled, so a reply, which
 * can only be written once its message was handled, always comes after it, and something sent before the
 * customer wrote, before.
 */
export function receivedOrder(message: InboundMessage): number {
  const handled = message.handledAt ?? message.receivedAt;
  return Math.min(Math.max(handled, message.receivedAt), message.receivedAt + 999);
}

/** Two received messages at one key: the one handled first (the network delivers in order). */
function handledFirst(a: ThreadEntry, b: ThreadEntry): number {
  if (a.direction !== 'in' || b.direction !== 'in') return 0;
  return (a.message.handledAt ?? 0) - (b.message.handledAt ?? 0);
}

/** Both directions in one line of time, oldest first; at one millisecond, received before sent. */
export function threadEntries(
  received: readonly InboundMessage[],
  sent: readonly SentMessage[],
  authors: ReadonlyMap<string, string> = new Map(),
): ThreadEntry[] {
  const entries: ThreadEntry[] = [
    ...received.map((message) => ({ direction: 'in' as const, at: receivedOrder(message), message })),
    ...sent.map((message) => {
      const author = authors.get(message.clientMessageId);
      return { direction: 'out' as const, at: message.createdAt, message, ...(author ? { author } : {}) };
    }),
  ];
  return entries.sort(
    (a, b) =>
      a.at - b.at ||
      (a.direction === b.direction
        ? handledFirst(a, b) || a.message.id.localeCompare(b.message.id)
        : a.direction === 'in'
          ? -1
          : 1),
  );
}

/** The conversation with its thread; opening it leaves nothing unread. */
export async function openConversation(
  deps: InboxDeps,
  accountId: string,
  id: string,
): Promise<OpenedConversation> {
  const conversation = await conversationOf(deps, accountId, id);
  if (conversation.unread > 0) await deps.inbox.markRead(accountId, id, now(deps));
  const thread = await deps.inbox.thread(
    accountId,
    conversation.businessPhone,
    conversation.userPhone,
    THREAD_LIMIT,
  );
  return {
    conversation,
    entries: threadEntries(thread.received, thread.sent, thread.authors),
    window: replyWindow(conversation, now(deps)),
  };
}

/** The members a conversation may be assigned to: those whose role opens the inbox. */
export async function assignableMembers(deps: InboxDeps, accountId: string): Promise<Member[]> {
  return (await deps.members(accountId)).filter((m) => canOpen(m.role, 'inbox'));
}

/** Assigns the conversation to a member who may open the inbox, or to nobody (`assigneeId` empty). */
export async function assignConversation(
  deps: InboxDeps,
  accountId: string,
  id: string,
  assigneeId: string,
): Promise<void> {
  await conversationOf(deps, accountId, id);
  if (assigneeId !== '' && !(await assignableMembers(deps, accountId)).some((m) => m.id === assigneeId)) {
    throw new GatewayError(
      'invalid_request',
      '`assignee` must be a member of the team who may open the inbox',
      {
        field: 'assignee',
      },
    );
  }
  await deps.inbox.assign(accountId, id, assigneeId || null, now(deps));
}

export const isConversationState = (value: unknown): value is ConversationState =>
  (CONVERSATION_STATES as readonly unknown[]).includes(value);

export async function setConversationState(
  deps: InboxDeps,
  accountId: string,
  id: string,
  state: unknown,
): Promise<void> {
  if (!isConversationState(state)) {
    throw new GatewayError('invalid_request', '`state` must be open or closed', { field: 'state' });
  }
  if (!(await deps.inbox.setState(accountId, id, state, now(deps)))) {
    throw new GatewayError('not_found', 'There is no such conversation in your account.');
  }
}
