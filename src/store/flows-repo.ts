/**
 * WhatsApp Flows of an account. Every query a client can reach is scoped by account and says so in its
 * name; the one unscoped read serves the preview page, whose signed token is its own credential.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, FlowsTable } from './schema.ts';

export type FlowRow = FlowsTable;
export type FlowStatus = FlowRow['status'];
export type NewFlow = Omit<FlowRow, 'id' | 'status' | 'created_at' | 'updated_at'>;
export type FlowChanges = Partial<
  Pick<FlowRow, 'name' | 'categories' | 'flow_json' | 'validation_errors' | 'status'>
>;

export interface FlowPage {
  rows: FlowRow[];
  total: number;
}

export function flowsRepo(db: Kysely<Database>) {
  /** The next flow id: one atomic statement, so two nodes sharing PostgreSQL never get the same id. */
  async function nextFlowId(): Promise<number> {
    const row = await db
      .updateTable('id_counters')
      .set({ value: sql`value + 1` })
      .where('name', '=', 'flows')
      .returning('value')
      .executeTakeFirstOrThrow();
    return Number(row.value);
  }

  return {
    async createFlow(input: NewFlow, now: number): Promise<FlowRow> {
      const row: FlowRow = {
        ...input,
        id: await nextFlowId(),
        status: 'DRAFT',
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('flows').values(row).execute();
      return row;
    },

    findFlowOfAccount(accountId: string, id: number): Promise<FlowRow | undefined> {
      return db
        .selectFrom('flows')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    findFlowOfAccountByWaFlowId(accountId: string, waFlowId: string): Promise<FlowRow | undefined> {
      return db
        .selectFrom('flows')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('wa_flow_id', '=', waFlowId)
        .executeTakeFirst();
    },

    /** Unscoped on purpose: the preview page has no API key; its signed, expiring token names the flow. */
    findFlowForPreview(id: number): Promise<FlowRow | undefined> {
      return db.selectFrom('flows').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Applies `changes` only while the flow is in `expectedStatus`: a publish racing an update (or two
     * nodes publishing at once) cannot both win. Returns the updated row, or undefined when the flow is
     * gone or no longer in that status.
     */
    async updateFlowOfAccountIfStatus(
      accountId: string,
      id: number,
      expectedStatus: FlowStatus,
      changes: FlowChanges,
      now: number,
    ): Promise<FlowRow | undefined> {
      const result = await db
        .updateTable('flows')
        .set({ ...changes, updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', '=', expectedStatus)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return this.findFlowOfAccount(accountId, id);
    },

    /** Deletes a flow that is still in `expectedStatus`; false when it is gone or in another status. */
    async deleteFlowOfAccountIfStatus(
      accountId: string,
      id: number,
      expectedStatus: FlowStatus,
    ): Promise<boolean> {
      const result = await db
        .deleteFrom('flows')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('status', '=', expectedStatus)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** One page, newest first (ties broken by id, so pages never overlap); `page` is 1-based. */
    async listFlowsOfAccount(accountId: string, page: number, perPage: number): Promise<FlowPage> {
      const counted = await db
        .selectFrom('flows')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('flows')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { rows, total: Number(counted.n) };
    },
  };
}

export type FlowsRepo = ReturnType<typeof flowsRepo>;
