/**
 * The in-process simulator's state (src/simulator/state/): its users and chats, templates, flows, media,
 * windows, faults and the webhooks it still owes, as JSON records under a kind and a key. The gateway's
 * own tables never refer to it, nor it to them: the simulator stands in for a remote network.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('simulator_records')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('simulator_records_pk', ['kind', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('simulator_records').execute();
}
