/**
 * Finds the messages whose outcome is still open (status PENDING: in flight, abandoned by a stopped node, or
 * waiting for the network's status reports; docs/adr/0013) without reading every message ever sent: the
 * background sweep looks for them every few seconds on every node. A partial index holds only those rows,
 * a handful at any time, on SQLite and PostgreSQL alike.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('messages_unsettled')
    .on('messages')
    .column('created_at')
    .where(sql.ref('status'), '=', sql.lit('PENDING'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_unsettled').execute();
}
