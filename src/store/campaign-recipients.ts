/**
 * A campaign's recipients (src/domain/ports/campaigns.ts). What the network did with a recipient's
 * message is not copied here: it is the message's own status, joined by the recipient's messageId, and
 * a reply is the user's last message to the number (conversation_windows) after the send. So the status
 * path of a campaign's messages costs what any message's does.
 *
 * Claims take the lowest numbers first, expired leases before new ones, each as one statement; on
 * PostgreSQL `FOR UPDATE SKIP LOCKED` lets nodes claiming one campaign at once take different rows.
 */
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type {
  Campaign,
  CampaignsStore,
  ClaimedRecipient,
  RecipientOutcome,
  RecipientState,
} from '../domain/ports/campaigns.ts';
import { INTERRUPTED } from '../domain/unknown-outcomes.ts';
import { countOf, pageOf, statusesOverTime, tallyOf } from './campaign-recipient-reads.ts';
import type { Dialect } from './connect.ts';
import type { Database } from './schema.ts';

type RecipientPart = Pick<
  CampaignsStore,
  | 'clearRecipients'
  | 'appendRecipients'
  | 'claim'
  | 'finish'
  | 'release'
  | 'requeueInterrupted'
  | 'remaining'
  | 'tally'
  | 'recipients'
  | 'countRecipients'
  | 'statusesOverTime'
>;

/** Rows per INSERT: within SQLite's and PostgreSQL's limits on bound parameters. */
const INSERT_ROWS = 500;

/** The deterministic messageId of a campaign's recipient: the same on every node and every retry. */
const recipientMessageId = (campaignId: string, seq: number) => `${campaignId}-${seq}`;

interface ClaimRow {
  seq: number;
  account_id: string;
  recipient: string;
  variables: string | null;
  message_id: string;
}

async function claimWhere(
  db: Kysely<Database>,
  dialect: Dialect,
  campaignId: string,
  pick: Expression<SqlBool>,
  times: { now: number; leaseUntil: number },
  limit: number,
): Promise<ClaimRow[]> {
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  // The picked rows in a materialized CTE, read once: as `seq in (select ... limit n for update skip
  // locked)`, PostgreSQL may run the subquery again for every row it updates (a semi join with no
  // Materialize, as on a table not yet analyzed), each run skipping the rows just taken and finding the
  // next: one claim of 20 then took a whole campaign of 300.
  const { rows } = await sql<ClaimRow>`
    with picked as materialized (
      select seq from campaign_recipients where campaign_id = ${campaignId} and ${pick}
      order by seq limit ${limit} ${lock})
    update campaign_recipients set state = 'SENDING', lease_until = ${times.leaseUntil}, updated_at = ${times.now}
    where campaign_id = ${campaignId} and seq in (select seq from picked)
    returning seq, account_id, recipient, variables, message_id`.execute(db);
  return rows;
}

async function claim(
  db: Kysely<Database>,
  dialect: Dialect,
  campaign: Campaign,
  times: { now: number; leaseUntil: number },
  limit: number,
): Promise<ClaimedRecipient[]> {
  const expired = sql<SqlBool>`state = 'SENDING' and lease_until < ${times.now}`;
  const rows = (await claimWhere(db, dialect, campaign.id, expired, times, limit)).map((r) => ({
    ...r,
    reclaimed: true,
  }));
  if (rows.length < limit) {
    const queued = sql<SqlBool>`state = 'QUEUED'`;
    const fresh = await claimWhere(db, dialect, campaign.id, queued, times, limit - rows.length);
    rows.push(...fresh.map((r) => ({ ...r, reclaimed: false })));
  }
  return rows
    .map(
      (row): ClaimedRecipient => ({
        reclaimed: row.reclaimed,
        campaignId: campaign.id,
        seq: Number(row.seq),
        accountId: row.account_id,
        recipient: row.recipient,
        variables: row.variables ? (JSON.parse(row.variables) as string[]) : [],
        messageId: row.message_id,
      }),
    )
    .sort((a, b) => a.seq - b.seq);
}

const appendRecipients =
  (db: Kysely<Database>): CampaignsStore['appendRecipients'] =>
  async (campaign, firstSeq, recipients, at) => {
    const rows = recipients.map((r, i) => ({
      campaign_id: campaign.id,
      seq: firstSeq + i,
      account_id: campaign.accountId,
      contact_id: r.contactId,
      recipient: r.recipient,
      line: r.line,
      variables: r.variables ? JSON.stringify(r.variables) : null,
      state: r.state,
      reason: r.reason,
      message_id: recipientMessageId(campaign.id, firstSeq + i),
      lease_until: null,
      sent_at: null,
      updated_at: at,
    }));
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += INSERT_ROWS) {
        // A row another reading of the same audience wrote first stays (two starts of one campaign at
        // once on two nodes): each numbers the audience alike.
        await trx
          .insertInto('campaign_recipients')
          .values(rows.slice(i, i + INSERT_ROWS))
          .onConflict((c) => c.columns(['campaign_id', 'seq']).doNothing())
          .execute();
      }
    });
  };

/** A recipient in one of `states` moved on (guarded: one finished or taken by another meanwhile stays). */
async function moveRecipient(
  db: Kysely<Database>,
  key: { campaignId: string; seq: number },
  states: RecipientState[],
  set: { state: RecipientState; reason?: string | null; sent_at?: number | null; updated_at: number },
) {
  await db
    .updateTable('campaign_recipients')
    .set({ ...set, lease_until: null })
    .where('campaign_id', '=', key.campaignId)
    .where('seq', '=', key.seq)
    .where('state', 'in', states)
    .execute();
}

/**
 * Outcomes of many recipients. On PostgreSQL one statement, the outcomes one JSON parameter read as rows
 * (one round trip, one statement text whatever their number); on SQLite, in process, a statement each,
 * which SQLite's planner serves by the primary key (an UPDATE ... FROM a JSON table scans the campaign).
 */
async function finishMany(
  db: Kysely<Database>,
  dialect: Dialect,
  campaignId: string,
  outcomes: RecipientOutcome[],
  at: number,
): Promise<void> {
  if (outcomes.length === 0) return;
  if (dialect === 'sqlite') {
    for (const o of outcomes) {
      await moveRecipient(db, { campaignId, seq: o.seq }, ['SENDING', 'QUEUED'], {
        state: o.state,
        reason: o.reason,
        sent_at: o.sentAt,
        updated_at: at,
      });
    }
    return;
  }
  const json = JSON.stringify(
    outcomes.map((o) => ({ seq: o.seq, state: o.state, reason: o.reason, sent_at: o.sentAt })),
  );
  await sql`
    update campaign_recipients set state = v.state, reason = v.reason, sent_at = v.sent_at,
      lease_until = null, updated_at = ${at}
    from json_to_recordset(${json}::json) as v(seq integer, state text, reason text, sent_at bigint)
    where campaign_recipients.campaign_id = ${campaignId} and campaign_recipients.seq = v.seq
      and campaign_recipients.state in ('SENDING', 'QUEUED')`.execute(db);
}

/** The suffix of a recipient's second messageId, after an interrupted first send (one retry only). */
const RETRY_SUFFIX = '-r';

async function requeueInterrupted(db: Kysely<Database>, campaign: Campaign, at: number): Promise<number> {
  const { numAffectedRows } = await sql`
    update campaign_recipients set state = 'QUEUED', message_id = message_id || ${RETRY_SUFFIX},
      sent_at = null, updated_at = ${at}
    where campaign_id = ${campaign.id} and state = 'DONE' and message_id not like ${`%${RETRY_SUFFIX}`}
      and exists (select 1 from messages m where m.account_id = campaign_recipients.account_id
        and m.client_message_id = campaign_recipients.message_id and m.status = 'FAILED'
        and m.wa_id is null and m.error like ${`%"title":"${INTERRUPTED.title}"%`})`.execute(db);
  return Number(numAffectedRows ?? 0);
}

export function campaignRecipients(db: Kysely<Database>, dialect: Dialect): RecipientPart {
  return {
    clearRecipients: async (campaignId) => {
      await db.deleteFrom('campaign_recipients').where('campaign_id', '=', campaignId).execute();
    },
    appendRecipients: appendRecipients(db),
    claim: (campaign, now, leaseUntil, limit) => claim(db, dialect, campaign, { now, leaseUntil }, limit),
    finish: (campaignId, outcomes, at) => finishMany(db, dialect, campaignId, outcomes, at),
    release: (campaignId, seq, at) =>
      moveRecipient(db, { campaignId, seq }, ['SENDING'], { state: 'QUEUED', updated_at: at }),
    requeueInterrupted: (campaign, at) => requeueInterrupted(db, campaign, at),
    remaining: async (campaignId) => {
      const { n } = await db
        .selectFrom('campaign_recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', campaignId)
        .where('state', 'in', ['QUEUED', 'SENDING'])
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    tally: (campaign) => tallyOf(db, campaign),
    recipients: (campaign, filter, page) => pageOf(db, campaign, filter, page),
    countRecipients: (campaign, filter) => countOf(db, campaign, filter),
    statusesOverTime: (campaign, from, bucketMs) => statusesOverTime(db, campaign, from, bucketMs),
  };
}
