/**
 * Removes expired traffic a batch at a time (src/domain/ports/retention.ts). Ids are time-ordered
 * (src/lib/ids.ts), so "made before the cutoff" is a range of each table's primary key: no index on a time
 * column is needed, and each batch reads only the rows it removes. Children go before their parents, each
 * group in one transaction.
 *
 * Kept whatever their age: messages still PENDING (their outcome is open, docs/adr/0013) and events with a
 * delivery still pending (the receiver has not had them yet).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { RetentionStore } from '../domain/ports/retention.ts';
import { firstIdAt } from '../lib/ids.ts';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

async function removeMessages(db: Db, cutoff: number, limit: number): Promise<number> {
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('id', '<', firstIdAt('msg', cutoff))
    .where('status', '!=', 'PENDING')
    .orderBy('id')
    .limit(limit)
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('message_status_events').where('message_id', 'in', ids).execute();
    await trx.deleteFrom('messages').where('id', 'in', ids).execute();
  });
  return ids.length;
}

async function removeByIdRange(
  db: Db,
  table: 'inbound_messages' | 'unmatched_statuses',
  prefix: 'in' | 'ust',
  cutoff: number,
  limit: number,
): Promise<number> {
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('id', '<', firstIdAt(prefix, cutoff))
    .orderBy('id')
    .limit(limit)
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await db.deleteFrom(table).where('id', 'in', ids).execute();
  return ids.length;
}

/** Stored copies of media users sent: the file first, then its row (a crash between leaves only a row). */
async function removeMedia(db: Db, dataDir: string, cutoff: number, limit: number): Promise<number> {
  const rows = await db
    .selectFrom('media_files')
    .select(['id', 'path'])
    .where('id', '<', firstIdAt('med', cutoff))
    .orderBy('id')
    .limit(limit)
    .execute();
  if (rows.length === 0) return 0;
  for (const row of rows) await rm(path.join(dataDir, row.path), { force: true });
  await db
    .deleteFrom('media_files')
    .where(
      'id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.length;
}

async function removeEvents(db: Db, cutoff: number, limit: number): Promise<number> {
  const rows = await db
    .selectFrom('events as e')
    .select('e.id')
    .where('e.id', '<', firstIdAt('evt', cutoff))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('deliveries as d')
            .select('d.id')
            .whereRef('d.event_id', '=', 'e.id')
            .where('d.status', '=', 'pending'),
        ),
      ),
    )
    .orderBy('e.id')
    .limit(limit)
    .execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    const deliveries = trx.selectFrom('deliveries').select('id').where('event_id', 'in', ids);
    await trx.deleteFrom('delivery_attempts').where('delivery_id', 'in', deliveries).execute();
    await trx.deleteFrom('deliveries').where('event_id', 'in', ids).execute();
    await trx.deleteFrom('events').where('id', 'in', ids).execute();
  });
  return ids.length;
}

/**
 * Small tables whose rows carry a time of their own instead of a time-ordered id, removed by that time
 * (none holds more than a row per customer, per reply or per template, so no index on the time is needed):
 * - inbox conversations with no activity since the cutoff: their messages are gone or going, and the row
 *   keeps the last one's words as its preview;
 * - who sent each reply from the inbox, as old as the messages removed with it;
 * - verdicts on templates no create of this gateway claimed (src/store/templates-repo.ts keeps them).
 */
const BY_TIME = [
  { table: 'inbox_conversations', key: 'id', time: 'last_activity_at' },
  { table: 'inbox_reply_authors', key: 'client_message_id', time: 'created_at' },
  { table: 'inbox_notes', key: 'id', time: 'created_at' },
  { table: 'early_template_reviews', key: 'template_id', time: 'at' },
] as const satisfies readonly { table: keyof Database; key: string; time: string }[];

async function removeByTime(
  db: Db,
  { table, key, time }: (typeof BY_TIME)[number],
  cutoff: number,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ key: string }>`select ${sql.ref(key)} as key from ${sql.table(table)}
    where ${sql.ref(time)} < ${cutoff} limit ${limit}`.execute(db);
  const keys = rows.map((r) => r.key);
  // The time is asked again: a key that a newer row shares (one messageId in two accounts) leaves that row.
  if (keys.length > 0)
    await sql`delete from ${sql.table(table)}
      where ${sql.ref(time)} < ${cutoff} and ${sql.ref(key)} in (${sql.join(keys)})`.execute(db);
  return keys.length;
}

export function retentionRepo(db: Db, dataDir: string): RetentionStore {
  return {
    async removeBefore(cutoff, limit) {
      const removed = [
        await removeMessages(db, cutoff, limit),
        await removeByIdRange(db, 'inbound_messages', 'in', cutoff, limit),
        await removeByIdRange(db, 'unmatched_statuses', 'ust', cutoff, limit),
        await removeMedia(db, dataDir, cutoff, limit),
        await removeEvents(db, cutoff, limit),
      ];
      for (const table of BY_TIME) removed.push(await removeByTime(db, table, cutoff, limit));
      return Math.max(...removed);
    },
  };
}
