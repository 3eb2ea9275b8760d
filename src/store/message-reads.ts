/** Reads of sent messages beside the send path's own (messages-repo.ts): by network id, and the status history. */
import type { Kysely } from 'kysely';
import { type MessageStatus, statusRank } from '../domain/message-status.ts';
import type { MessagesStore } from '../domain/ports/messages.ts';
import { sentMessageOf } from './message-rows.ts';
import type { Database } from './schema.ts';

export function messageReads(db: Kysely<Database>): Pick<MessagesStore, 'findByNetworkId' | 'timeline'> {
  return {
    /** Unscoped, as the network's status reports carry only the id; the caller stays in its account. */
    async findByNetworkId(waId) {
      const row = await db.selectFrom('messages').selectAll().where('wa_id', '=', waId).executeTakeFirst();
      return row && sentMessageOf(row);
    },

    async timeline(messageId) {
      const events = await db
        .selectFrom('message_status_events')
        .select(['status', 'at', 'error'])
        .where('message_id', '=', messageId)
        .execute();
      // Statuses only move forward, so their rank is their order; network times have only second
      // resolution and cannot order events within one second.
      return events.sort(
        (a, b) => statusRank(a.status as MessageStatus) - statusRank(b.status as MessageStatus),
      );
    },
  };
}
