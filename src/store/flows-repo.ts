/**
 * WhatsApp Flows of an account. Every query a client can reach is scoped by account and says so in its
 * name; the one unscoped read serves the preview page, whose signed token is its own credential.
 */
import { type Kysely, sql } from 'kysely';
import type { Flow, FlowChanges, FlowPage, FlowStatus, FlowsStore, NewFlow } from '../domain/ports/flows.ts';
import type { Database, FlowsTable } from './schema.ts';

const flowOf = (row: FlowsTable): Flow => ({
  id: row.id,
  accountId: row.account_id,
  phone: row.phone,
  name: row.name,
  categories: row.categories,
  status: row.status,
  waFlowId: row.wa_flow_id,
  flowJson: row.flow_json,
  validationErrors: row.validation_errors,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Only the columns a change names: an absent field leaves its column as it is. */
function columnsOf(changes: FlowChanges): Partial<FlowsTable> {
  return {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.categories !== undefined ? { categories: changes.categories } : {}),
    ...(changes.flowJson !== undefined ? { flow_json: changes.flowJson } : {}),
    ...(changes.validationErrors !== undefined ? { validation_errors: changes.validationErrors } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
  };
}

/** The next flow id: one atomic statement, so two nodes sharing PostgreSQL never get the same id. */
async function nextFlowId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .updateTable('id_counters')
    .set({ value: sql`value + 1` })
    .where('name', '=', 'flows')
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

class FlowsRepository implements FlowsStore {
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async createFlow(input: NewFlow, now: number): Promise<Flow> {
    const row: FlowsTable = {
      id: await nextFlowId(this.#db),
      account_id: input.accountId,
      phone: input.phone,
      name: input.name,
      categories: input.categories,
      status: 'DRAFT',
      wa_flow_id: input.waFlowId,
      flow_json: input.flowJson,
      validation_errors: input.validationErrors,
      created_at: now,
      updated_at: now,
    };
    await this.#db.insertInto('flows').values(row).execute();
    return flowOf(row);
  }

  async findFlowOfAccount(accountId: string, id: number): Promise<Flow | undefined> {
    const row = await this.#db
      .selectFrom('flows')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && flowOf(row);
  }

  async findFlowOfAccountByWaFlowId(accountId: string, waFlowId: string): Promise<Flow | undefined> {
    const row = await this.#db
      .selectFrom('flows')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('wa_flow_id', '=', waFlowId)
      .executeTakeFirst();
    return row && flowOf(row);
  }

  /** Unscoped on purpose: the preview page has no API key; its signed, expiring token names the flow. */
  async findFlowForPreview(id: number): Promise<Flow | undefined> {
    const row = await this.#db.selectFrom('flows').selectAll().where('id', '=', id).executeTakeFirst();
    return row && flowOf(row);
  }

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
  ): Promise<Flow | undefined> {
    const result = await this.#db
      .updateTable('flows')
      .set({ ...columnsOf(changes), updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', '=', expectedStatus)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.findFlowOfAccount(accountId, id);
  }

  /** Deletes a flow that is still in `expectedStatus`; false when it is gone or in another status. */
  async deleteFlowOfAccountIfStatus(
    accountId: string,
    id: number,
    expectedStatus: FlowStatus,
  ): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('flows')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('status', '=', expectedStatus)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** One page, newest first (ties broken by id, so pages never overlap); `page` is 1-based. */
  async listFlowsOfAccount(accountId: string, page: number, perPage: number): Promise<FlowPage> {
    const counted = await this.#db
      .selectFrom('flows')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    const rows = await this.#db
      .selectFrom('flows')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows: rows.map(flowOf), total: Number(counted.n) };
  }
}

export function flowsRepo(db: Kysely<Database>): FlowsStore {
  return new FlowsRepository(db);
}
