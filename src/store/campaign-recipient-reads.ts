/**
 * Reads of a campaign's recipients joined with what became of them (src/store/campaign-recipients.ts):
 * the message of each handed-on recipient (by its messageId) and the user's last message to the number.
 */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type {
  Campaign,
  RecipientFilter,
  RecipientRecord,
  RecipientState,
  RecipientTally,
  StatusBucket,
} from '../domain/ports/campaigns.ts';
import type { Database } from './schema.ts';

/** The recipients a public filter keeps (r = campaign_recipients, m = its message, w = the user's window). */
function filterCondition(filter: RecipientFilter | undefined): Expression<SqlBool> {
  switch (filter) {
    case undefined:
      return sql<SqlBool>`1 = 1`;
    case 'queued':
      return sql<SqlBool>`(r.state in ('QUEUED', 'SENDING') or (r.state = 'DONE' and m.status = 'PENDING'))`;
    case 'sent':
      return sql<SqlBool>`(r.state = 'DONE' and m.status in ('SENT', 'DELIVERED', 'READ'))`;
    case 'delivered':
      return sql<SqlBool>`(r.state = 'DONE' and m.status in ('DELIVERED', 'READ'))`;
    case 'read':
      return sql<SqlBool>`(r.state = 'DONE' and m.status = 'READ')`;
    case 'failed':
      return sql<SqlBool>`(r.state = 'FAILED' or (r.state = 'DONE' and m.status = 'FAILED'))`;
    case 'skipped':
      return sql<SqlBool>`r.state = 'SKIPPED'`;
    case 'replied':
      return sql<SqlBool>`(r.state = 'DONE' and w.last_inbound_at > r.sent_at)`;
  }
}

/** The recipients of one campaign with their message and window. */
function joined(db: Kysely<Database>, campaign: Campaign) {
  return db
    .selectFrom('campaign_recipients as r')
    .leftJoin('messages as m', (j) =>
      j
        .on('r.state', '=', 'DONE')
        .onRef('m.account_id', '=', 'r.account_id')
        .onRef('m.client_message_id', '=', 'r.message_id'),
    )
    .leftJoin('conversation_windows as w', (j) =>
      j
        .on('r.state', '=', 'DONE')
        .on('w.business_phone', '=', campaign.from)
        .onRef('w.user_phone', '=', 'r.recipient'),
    )
    .where('r.campaign_id', '=', campaign.id);
}

export async function tallyOf(db: Kysely<Database>, campaign: Campaign): Promise<RecipientTally[]> {
  const rows = await joined(db, campaign)
    .select((eb) => [
      'r.state',
      'r.reason',
      'm.status as message_status',
      eb.fn.countAll<number>().as('count'),
      sql<number>`sum(case when w.last_inbound_at > r.sent_at then 1 else 0 end)`.as('replied'),
    ])
    .groupBy(['r.state', 'r.reason', 'm.status'])
    .execute();
  return rows.map((row) => ({
    state: row.state as RecipientState,
    reason: row.reason,
    messageStatus: row.message_status,
    count: Number(row.count),
    replied: Number(row.replied ?? 0),
  }));
}

const orNull = (value: number | string | null) => (value === null ? null : Number(value));

export async function pageOf(
  db: Kysely<Database>,
  campaign: Campaign,
  filter: RecipientFilter | undefined,
  page: { afterSeq: number; offset: number; limit: number },
): Promise<RecipientRecord[]> {
  const rows = await joined(db, campaign)
    .where(filterCondition(filter))
    .where('r.seq', '>', page.afterSeq)
    .select([
      'r.seq',
      'r.contact_id',
      'r.recipient',
      'r.line',
      'r.state',
      'r.reason',
      'r.message_id',
      'r.sent_at',
      'r.updated_at',
      'm.status as message_status',
      'w.last_inbound_at',
    ])
    .orderBy('r.seq')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return rows.map((row) => {
    const sentAt = orNull(row.sent_at);
    const lastInbound = orNull(row.last_inbound_at);
    return {
      seq: Number(row.seq),
      contactId: row.contact_id,
      recipient: row.recipient,
      line: orNull(row.line),
      state: row.state as RecipientState,
      reason: row.reason,
      messageId: row.message_id,
      messageStatus: row.message_status,
      replied: sentAt !== null && lastInbound !== null && lastInbound > sentAt,
      sentAt,
      updatedAt: Number(row.updated_at),
    };
  });
}

export async function countOf(
  db: Kysely<Database>,
  campaign: Campaign,
  filter: RecipientFilter | undefined,
): Promise<number> {
  const { n } = await joined(db, campaign)
    .where(filterCondition(filter))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * The steps of a campaign's messages, counted per status and span of time: one pass over their status
 * history (message_status_events, by its message index), grouped in the database.
 */
export async function statusesOverTime(
  db: Kysely<Database>,
  campaign: Campaign,
  from: number,
  bucketMs: number,
): Promise<StatusBucket[]> {
  // A step counts from when its recipient was sent at the earliest: the network's times are whole
  // seconds, and a delivery it timed 02:36:06.000 for a message sent at 02:36:06.4 was not earlier.
  const at = sql`case when r.sent_at is not null and e.at < r.sent_at then r.sent_at else e.at end`;
  const bucket = sql<number>`cast((${at} - ${from}) / ${bucketMs} as integer)`;
  const rows = await db
    .selectFrom('campaign_recipients as r')
    .innerJoin('messages as m', (j) =>
      j.onRef('m.account_id', '=', 'r.account_id').onRef('m.client_message_id', '=', 'r.message_id'),
    )
    .innerJoin('message_status_events as e', 'e.message_id', 'm.id')
    .where('r.campaign_id', '=', campaign.id)
    .where('r.state', '=', 'DONE')
    .select((eb) => ['e.status', bucket.as('bucket'), eb.fn.countAll<number>().as('n')])
    // By position: PostgreSQL would not see the bucket, bound again with new parameters, as the same.
    .groupBy([sql`1`, sql`2`])
    .execute();
  // A recipient refused before the network took a message (a sandbox user who never joined, a refusal
  // of the send) has no status history: it failed when its row was last changed, as the counts say.
  const refusedAt = sql<number>`cast((r.updated_at - ${from}) / ${bucketMs} as integer)`;
  const refused = await db
    .selectFrom('campaign_recipients as r')
    .where('r.campaign_id', '=', campaign.id)
    .where('r.state', '=', 'FAILED')
    .select((eb) => [refusedAt.as('bucket'), eb.fn.countAll<number>().as('n')])
    .groupBy(sql`1`)
    .execute();
  return [
    ...rows.map((row) => ({ status: row.status, bucket: Number(row.bucket), count: Number(row.n) })),
    ...refused.map((row) => ({ status: 'FAILED', bucket: Number(row.bucket), count: Number(row.n) })),
  ];
}
