/**
 * The message log of one account, for people to read (the portal): sent and received messages, newest
 * first, filtered and paged. Every query is scoped by account; another account's message is not found.
 */
import type { InboundMessage } from './inbound.ts';
import type { SentMessage } from './messages.ts';

export interface LogFilters {
  /** Digits only; matches anywhere in the other party's number. */
  number?: string;
  status?: string;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, exclusive. */
  until?: number;
}

export interface LogPage<T> {
  rows: T[];
  hasMore: boolean;
}

export interface MessageLogStore {
  listSent(
    accountId: string,
    filters: LogFilters,
    offset: number,
    limit: number,
  ): Promise<LogPage<SentMessage>>;
  listReceived(
    accountId: string,
    filters: LogFilters,
    offset: number,
    limit: number,
  ): Promise<LogPage<InboundMessage>>;
  findSentOfAccount(accountId: string, id: string): Promise<SentMessage | undefined>;
}
