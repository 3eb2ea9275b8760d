/**
 * The message log of one account, for people to read: sent and received messages, newest first, filtered
 * and paged. Every query is filtered by account id; another account's message is simply not found.
 */
import type { Kysely } from 'kysely';
import type { InboundMessage } from '../domain/ports/inbound.ts';
import type { LogFilters, LogPage, MessageLogStore } from '../domain/ports/message-log.ts';
import type { SentMessage } from '../domain/ports/messages.ts';
import { inboundMessageOf } from './inbound-repo.ts';
import { sentMessageOf } from './message-rows.ts';
import type { Database } from './schema.ts';

export function messageLogRepo(db: Kysely<Database>): MessageLogStore {
  return {
    async listSent(
      accountId: string,
      filters: LogFilters,
      offset: number,
      limit: number,
    ): Promise<LogPage<SentMessage>> {
      let query = db.selectFrom('messages').selectAll().where('account_id', '=', accountId);
      if (filters.number) query = query.where('to_phone', 'like', `%${filters.number}%`);
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.from !== undefined) query = query.where('created_at', '>=', filters.from);
      if (filters.until !== undefined) query = query.where('created_at', '<', filters.until);
      // One row more than the page tells whether there is a next page, without a count.
      const rows = await query
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit + 1)
        .execute();
      return { rows: rows.slice(0, limit).map(sentMessageOf), hasMore: rows.length > limit };
    },

    async listReceived(
      accountId: string,
      filters: LogFilters,
      offset: number,
      limit: number,
    ): Promise<LogPage<InboundMessage>> {
      let query = db.selectFrom('inbound_messages').selectAll().where('account_id', '=', accountId);
      if (filters.number) query = query.where('user_phone', 'like', `%${filters.number}%`);
      if (filters.from !== undefined) query = query.where('received_at', '>=', filters.from);
      if (filters.until !== undefined) query = query.where('received_at', '<', filters.until);
      const rows = await query
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit + 1)
        .execute();
      return { rows: rows.slice(0, limit).map(inboundMessageOf), hasMore: rows.length > limit };
    },

    async findSentOfAccount(accountId: string, id: string): Promise<SentMessage | undefined> {
      const row = await db
        .selectFrom('messages')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && sentMessageOf(row);
    },
  };
}
