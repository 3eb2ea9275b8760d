/** The inbox's conversations and threads (src/domain/ports/inbox.ts), scoped by account in every query. */
import { type Kysely, sql, type Transaction } from 'kysely';
import type {
  Conversation,
  ConversationState,
  InboxFilter,
  InboxReplyRecord,
  InboxStore,
  ReceivedInInbox,
  Thread,
} from '../domain/ports/inbox.ts';
import { newId } from '../lib/ids.ts';
import { inboundMessageOf } from './inbound-repo.ts';
import { sentMessageOf } from './message-rows.ts';
import type { Database } from './schema.ts';
import type { InboxConversationsTable } from './schema-campaigns.ts';

const conversationOf = (
  row: InboxConversationsTable & { window_inbound_at: number | null },
): Conversation => ({
  id: row.id,
  accountId: row.account_id,
  businessPhone: row.business_phone,
  userPhone: row.user_phone,
  profileName: row.profile_name,
  preview: row.preview,
  lastActivityAt: Number(row.last_activity_at),
  unread: Number(row.unread),
  state: row.state === 'closed' ? 'closed' : 'open',
  assigneeId: row.assignee_id,
  updatedAt: Number(row.updated_at),
  lastInboundAt: row.window_inbound_at === null ? null : Number(row.window_inbound_at),
});

/** Conversations with the 24-hour window of their number and user (conversations-repo.ts writes it). */
const withWindows = (db: Kysely<Database>, accountId: string) =>
  db
    .selectFrom('inbox_conversations as c')
    .leftJoin('conversation_windows as w', (join) =>
      join.onRef('w.business_phone', '=', 'c.business_phone').onRef('w.user_phone', '=', 'c.user_phone'),
    )
    .selectAll('c')
    .select('w.last_inbound_at as window_inbound_at')
    .where('c.account_id', '=', accountId);

/**
 * A received message opens its conversation, or moves it up and reopens it, one more unread. Called in the
 * transaction that publishes the message (event-outbox.ts), which runs once per message: the count is
 * exact however often the network delivers the message. A message older than the newest one (the network
 * delivers out of order) counts, but does not replace the preview.
 */
export async function recordReceivedInInbox(trx: Transaction<Database>, m: ReceivedInInbox): Promise<void> {
  const now = Date.now();
  await trx
    .insertInto('inbox_conversations')
    .values({
      id: newId('cnv', now),
      account_id: m.accountId,
      business_phone: m.businessPhone,
      user_phone: m.userPhone,
      profile_name: m.profileName,
      preview: m.preview,
      last_activity_at: m.at,
      unread: 1,
      state: 'open',
      assignee_id: null,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'business_phone', 'user_phone']).doUpdateSet({
        profile_name: sql`coalesce(excluded.profile_name, inbox_conversations.profile_name)`,
        preview: sql`case when excluded.last_activity_at >= inbox_conversations.last_activity_at then excluded.preview else inbox_conversations.preview end`,
        last_activity_at: sql`case when excluded.last_activity_at > inbox_conversations.last_activity_at then excluded.last_activity_at else inbox_conversations.last_activity_at end`,
        unread: sql`inbox_conversations.unread + 1`,
        state: 'open',
        updated_at: now,
      }),
    )
    .execute();
}

/** `%words%` for LIKE, its own wildcards escaped, lower-cased as the column it is compared with. */
const pattern = (words: string) => `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtered(db: Kysely<Database>, accountId: string, filter: InboxFilter) {
  let query = withWindows(db, accountId);
  if (filter.state) query = query.where('c.state', '=', filter.state);
  if (filter.assignee === 'unassigned') query = query.where('c.assignee_id', 'is', null);
  else if (filter.assignee) query = query.where('c.assignee_id', '=', filter.assignee);
  const words = filter.search?.trim();
  if (!words) return query;
  const like = pattern(words);
  // A number as people write it ("+254 712-000 012", "(254) 712000012"): its digits.
  const written = /^[+\d\s().-]+$/.test(words) && /\d/.test(words);
  const digits = written ? words.replace(/\D/g, '') : words.replace(/^\+/, '');
  return query.where((eb) =>
    eb.or([
      sql<boolean>`lower(c.user_phone) like ${pattern(digits)} escape '\\'`,
      sql<boolean>`lower(c.profile_name) like ${like} escape '\\'`,
      eb.exists(
        eb
          .selectFrom('inbound_messages as i')
          .select('i.id')
          .where('i.account_id', '=', accountId)
          .whereRef('i.user_phone', '=', 'c.user_phone')
          .whereRef('i.business_phone', '=', 'c.business_phone')
          .where(sql<boolean>`lower(i.payload) like ${like} escape '\\'`),
      ),
      eb.exists(
        eb
          .selectFrom('messages as m')
          .select('m.id')
          .where('m.account_id', '=', accountId)
          .whereRef('m.to_phone', '=', 'c.user_phone')
          .whereRef('m.from_phone', '=', 'c.business_phone')
          .where(sql<boolean>`lower(m.content) like ${like} escape '\\'`),
      ),
    ]),
  );
}

/** The newest `limit` messages of each direction between the number and the user, in this account. */
async function threadOf(
  db: Kysely<Database>,
  accountId: string,
  businessPhone: string,
  userPhone: string,
  limit: number,
): Promise<Thread> {
  const [received, sent] = await Promise.all([
    db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_phone', '=', userPhone)
      .where('business_phone', '=', businessPhone)
      .orderBy('received_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('to_phone', '=', userPhone)
      .where('from_phone', '=', businessPhone)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    received: received.map(inboundMessageOf),
    sent: sent.map(sentMessageOf),
    authors: await authorsOf(
      db,
      accountId,
      sent.map((m) => m.client_message_id),
    ),
  };
}

/** The members (by email) who sent these replies from the inbox; a member since removed is not named. */
async function authorsOf(
  db: Kysely<Database>,
  accountId: string,
  clientMessageIds: string[],
): Promise<Map<string, string>> {
  if (clientMessageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('inbox_reply_authors as r')
    .innerJoin('portal_users as u', 'u.id', 'r.user_id')
    .select(['r.client_message_id', 'u.email'])
    .where('r.account_id', '=', accountId)
    .where('u.account_id', '=', accountId)
    .where('r.client_message_id', 'in', clientMessageIds)
    .execute();
  return new Map(rows.map((r) => [r.client_message_id, r.email]));
}

/** A reply from the inbox: the conversation's preview and activity, and who sent it, together. */
async function recordReplyIn(
  db: Kysely<Database>,
  accountId: string,
  id: string,
  { preview, at, clientMessageId, authorId }: InboxReplyRecord,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('inbox_conversations')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .set({
        preview,
        last_activity_at: sql`case when last_activity_at > ${at} then last_activity_at else ${at} end`,
        updated_at: at,
      })
      .execute();
    await trx
      .insertInto('inbox_reply_authors')
      .values({
        account_id: accountId,
        client_message_id: clientMessageId,
        user_id: authorId,
        created_at: at,
      })
      .onConflict((c) => c.columns(['account_id', 'client_message_id']).doNothing())
      .execute();
  });
}

/** What changes with anything the inbox list (no conversation) or a thread shows (ports/inbox.ts). */
async function versionOf(
  db: Kysely<Database>,
  accountId: string,
  conversation?: Conversation,
): Promise<string> {
  if (!conversation) {
    const row = await db
      .selectFrom('inbox_conversations')
      .select((eb) => [
        eb.fn.max('updated_at').as('latest'),
        eb.fn.countAll().as('count'),
        eb.fn.sum('unread').as('unread'),
      ])
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return `${row?.latest ?? 0}:${row?.count ?? 0}:${row?.unread ?? 0}`;
  }
  const { businessPhone, userPhone } = conversation;
  const [received, sent, own, notes] = await Promise.all([
    db
      .selectFrom('inbound_messages')
      .select((eb) => [eb.fn.max('received_at').as('latest'), eb.fn.countAll().as('count')])
      .where('account_id', '=', accountId)
      .where('user_phone', '=', userPhone)
      .where('business_phone', '=', businessPhone)
      .executeTakeFirst(),
    db
      .selectFrom('messages')
      .select((eb) => [eb.fn.max('updated_at').as('latest'), eb.fn.countAll().as('count')])
      .where('account_id', '=', accountId)
      .where('to_phone', '=', userPhone)
      .where('from_phone', '=', businessPhone)
      .executeTakeFirst(),
    db
      .selectFrom('inbox_conversations')
      .select('updated_at')
      .where('account_id', '=', accountId)
      .where('id', '=', conversation.id)
      .executeTakeFirst(),
    db
      .selectFrom('inbox_notes')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('account_id', '=', accountId)
      .where('conversation_id', '=', conversation.id)
      .executeTakeFirst(),
  ]);
  return [received?.latest, received?.count, sent?.latest, sent?.count, own?.updated_at, notes?.count].join(
    ':',
  );
}

export function inboxRepo(db: Kysely<Database>): InboxStore {
  const update = (accountId: string, id: string) =>
    db.updateTable('inbox_conversations').where('account_id', '=', accountId).where('id', '=', id);
  return {
    async list(accountId, filter, offset, limit) {
      const rows = await filtered(db, accountId, filter)
        .orderBy('c.last_activity_at', 'desc')
        .orderBy('c.id', 'desc')
        .offset(offset)
        .limit(limit + 1)
        .execute();
      return { rows: rows.slice(0, limit).map(conversationOf), hasMore: rows.length > limit };
    },

    async find(accountId, id) {
      const row = await withWindows(db, accountId).where('c.id', '=', id).executeTakeFirst();
      return row && conversationOf(row);
    },

    async markRead(accountId, id, at) {
      await update(accountId, id).set({ unread: 0, updated_at: at }).where('unread', '>', 0).execute();
    },

    async assign(accountId, id, assigneeId, at) {
      const r = await update(accountId, id)
        .set({ assignee_id: assigneeId, updated_at: at })
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async setState(accountId, id, state: ConversationState, at) {
      const r = await update(accountId, id).set({ state, updated_at: at }).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    recordReply: (accountId, id, reply) => recordReplyIn(db, accountId, id, reply),

    thread: (accountId, businessPhone, userPhone, limit) =>
      threadOf(db, accountId, businessPhone, userPhone, limit),
    version: (accountId, conversation) => versionOf(db, accountId, conversation),

    async unreadTotal(accountId) {
      const row = await db
        .selectFrom('inbox_conversations')
        .select((eb) => eb.fn.sum('unread').as('unread'))
        .where('account_id', '=', accountId)
        .where('state', '=', 'open')
        .executeTakeFirst();
      return Number(row?.unread ?? 0);
    },
  };
}
