/**
 * Campaigns (src/domain/ports/campaigns.ts): a row per campaign, its settings as JSON, and a row per
 * recipient (src/store/campaign-recipients.ts reads and claims those). A status change and the events
 * reporting it are written in one transaction, guarded by the status it moves from, so that of two nodes
 * (or two requests) moving one campaign at once only one does.
 */
import { type Kysely, sql } from 'kysely';
import type { Campaign, CampaignEvent, CampaignStatus, CampaignsStore } from '../domain/ports/campaigns.ts';
import { campaignRecipients } from './campaign-recipients.ts';
import type { Dialect } from './connect.ts';
import type { CampaignsTable, Database } from './schema.ts';
import { insertEvent } from './webhooks-repo.ts';

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

export function campaignOf(row: CampaignsTable): Campaign {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    from: row.from_phone,
    template: JSON.parse(row.template) as Campaign['template'],
    parameters: JSON.parse(row.parameters) as Campaign['parameters'],
    audience: JSON.parse(row.audience) as Campaign['audience'],
    status: row.status as CampaignStatus,
    statusReason: row.status_reason,
    startAt: nullableNumber(row.start_at),
    timeZone: row.time_zone,
    total: nullableNumber(row.total),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    startedAt: nullableNumber(row.started_at),
    completedAt: nullableNumber(row.completed_at),
  };
}

function rowOf(c: Campaign): CampaignsTable {
  return {
    id: c.id,
    account_id: c.accountId,
    name: c.name,
    from_phone: c.from,
    template: JSON.stringify(c.template),
    parameters: JSON.stringify(c.parameters),
    audience: JSON.stringify(c.audience),
    status: c.status,
    status_reason: c.statusReason,
    start_at: c.startAt,
    time_zone: c.timeZone,
    total: c.total,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    started_at: c.startedAt,
    completed_at: c.completedAt,
  };
}

/** The timestamps a status sets the first time it is reached (a resume keeps the first start). */
function stampsOf(status: CampaignStatus, at: number) {
  if (status === 'RUNNING') return { started_at: sql<number>`coalesce(started_at, ${at})` };
  if (status === 'COMPLETED' || status === 'CANCELLED') return { completed_at: at };
  return {};
}

type Db = Kysely<Database>;

async function findCampaign(db: Db, accountId: string, id: string) {
  const row = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? campaignOf(row) : undefined;
}

async function listCampaigns(db: Db, accountId: string, page: { offset: number; limit: number }) {
  const rows = await db
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  const { total } = await db
    .selectFrom('campaigns')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { campaigns: rows.map(campaignOf), total: Number(total) };
}

async function updateDraft(db: Db, campaign: Campaign) {
  const { id, account_id, created_at, ...settings } = rowOf(campaign);
  const updated = await db
    .updateTable('campaigns')
    .set(settings)
    .where('account_id', '=', account_id)
    .where('id', '=', id)
    .where('status', '=', 'DRAFT')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 0 ? undefined : findCampaign(db, account_id, id);
}

async function deleteCampaign(db: Db, accountId: string, id: string) {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('campaigns')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await trx.deleteFrom('campaign_recipients').where('campaign_id', '=', id).execute();
    return true;
  });
}

const transition =
  (db: Db): CampaignsStore['transition'] =>
  (accountId, id, from, change, events: CampaignEvent) =>
    db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('campaigns')
        .set({
          status: change.status,
          status_reason: change.reason,
          updated_at: change.at,
          ...(change.total === undefined ? {} : { total: change.total }),
          ...stampsOf(change.status, change.at),
        })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return undefined;
      const row = await trx
        .selectFrom('campaigns')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const campaign = campaignOf(row);
      for (const event of events(campaign)) {
        await insertEvent(trx, accountId, event.type, event.data, change.at);
      }
      return campaign;
    });

/** Campaigns in one status, of every account (the runner's reads). */
async function inStatus(
  db: Db,
  status: CampaignStatus,
  limit: number,
  only: { dueBy?: number; from?: string } = {},
) {
  let query = db.selectFrom('campaigns').selectAll().where('status', '=', status);
  if (only.dueBy !== undefined) query = query.where('start_at', '<=', only.dueBy);
  if (only.from !== undefined) query = query.where('from_phone', '=', only.from);
  const rows = await query.orderBy('updated_at').limit(limit).execute();
  return rows.map(campaignOf);
}

export function campaignsRepo(db: Db, dialect: Dialect): CampaignsStore {
  return {
    ...campaignRecipients(db, dialect),
    find: (accountId, id) => findCampaign(db, accountId, id),
    insert: async (campaign) => {
      await db.insertInto('campaigns').values(rowOf(campaign)).execute();
    },
    list: (accountId, page) => listCampaigns(db, accountId, page),
    updateDraft: (campaign) => updateDraft(db, campaign),
    delete: (accountId, id) => deleteCampaign(db, accountId, id),
    transition: transition(db),
    due: (now, limit) => inStatus(db, 'SCHEDULED', limit, { dueBy: now }),
    running: (limit) => inStatus(db, 'RUNNING', limit),
    runningFrom: (phone) => inStatus(db, 'RUNNING', 1000, { from: phone }),
  };
}
