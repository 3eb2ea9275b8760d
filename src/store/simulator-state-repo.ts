/**
 * The in-process simulator's state store over the gateway's database (table `simulator_records`). It
 * implements the simulator's own port (src/simulator/state/store-port.ts) by shape: the store does not
 * import the simulator, which is a module apart (docs/adr/0019); the composition root hands one to the
 * other. A batch of changes is one transaction, so a kill -9 keeps all of a batch or none of it.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export interface SimulatorRecordRow {
  kind: string;
  key: string;
  value: string;
}

export interface SimulatorRecordChange {
  kind: string;
  key: string;
  value: string | null;
}

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 300;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

async function upsert(trx: Transaction<Database>, rows: SimulatorRecordRow[]): Promise<void> {
  for (const part of chunks(rows)) {
    await trx
      .insertInto('simulator_records')
      .values(part)
      .onConflict((oc) =>
        oc.columns(['kind', 'key']).doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })),
      )
      .execute();
  }
}

async function remove(trx: Transaction<Database>, changes: SimulatorRecordChange[]): Promise<void> {
  const byKind = new Map<string, string[]>();
  for (const c of changes) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c.key]);
  for (const [kind, keys] of byKind) {
    for (const part of chunks(keys)) {
      await trx.deleteFrom('simulator_records').where('kind', '=', kind).where('key', 'in', part).execute();
    }
  }
}

export function simulatorStateRepo(db: Kysely<Database>) {
  return {
    async load(): Promise<SimulatorRecordRow[]> {
      const rows = await db.selectFrom('simulator_records').select(['kind', 'key', 'value']).execute();
      // Plain objects whatever the driver gives (SQLite's rows have no prototype).
      return rows.map(({ kind, key, value }) => ({ kind, key, value }));
    },

    async write(changes: readonly SimulatorRecordChange[]): Promise<void> {
      const rows: SimulatorRecordRow[] = [];
      const deletions: SimulatorRecordChange[] = [];
      for (const c of changes) {
        if (c.value === null) deletions.push(c);
        else rows.push({ kind: c.kind, key: c.key, value: c.value });
      }
      // The journal gives each record once per batch, so the upserts and the deletions never overlap.
      await db.transaction().execute(async (trx) => {
        await upsert(trx, rows);
        await remove(trx, deletions);
      });
    },
  };
}
