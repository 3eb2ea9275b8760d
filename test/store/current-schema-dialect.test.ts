/**
 * The PostgreSQL store is confined to its current schema (src/store/current-schema-dialect.ts): its
 * introspection answers what Kysely's own answers for that schema, and nothing of another schema, however
 * many the database holds; the migrator finds its own bookkeeping beside another install's; a migration
 * of one schema waits for another of the same schema, and for no other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type DatabaseMetadataOptions, type Kysely, PostgresIntrospector, sql } from 'kysely';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { eventually } from '../support/eventually.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';

/** Whether a catalog read failed because an object it was reading was dropped meanwhile. */
function droppedWhileRead(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  // Schema or relation missing, or a row of the catalog gone between two lookups of one statement.
  return code === '3F000' || code === '42P01' || /with OID|cache lookup failed/.test(message ?? '');
}

/**
 * Kysely's own introspection reads the catalog of every schema in the database, so it fails when another
 * schema is dropped while it reads: under `npm test` a shard's schemas are dropped when the shard ends
 * (test/run.ts), while other shards run. It is read again until one read sees the catalog hold still. The
 * store's own introspection reads only its schema, and is never read again.
 */
const kyselysTables = (db: Kysely<unknown>, options: DatabaseMetadataOptions) =>
  eventually(async () => {
    try {
      return await new PostgresIntrospector(db).getTables(options);
    } catch (error) {
      if (droppedWhileRead(error)) return undefined;
      throw error;
    }
  });

describe('the PostgreSQL store confined to its current schema', async () => {
  const skip = await postgresSkipReason();
  let mine: PostgresSchema;
  let other: PostgresSchema;
  let store: Store;
  let otherStore: Store;

  before(async () => {
    if (skip) return;
    [mine, other] = await Promise.all([createPostgresSchema(), createPostgresSchema()]);
    // Another install in the same database: the same tables, and one more of its own.
    otherStore = openStore(other.url);
    await migrateToLatest(otherStore);
    await sql`create table only_elsewhere (id serial primary key, note text)`.execute(otherStore.db);
    store = openStore(mine.url);
    await migrateToLatest(store);
  });
  after(async () => {
    if (skip) return;
    await store.close();
    await otherStore.close();
    await mine.drop();
    await other.drop();
  });

  test("the tables are Kysely's own answer for the current schema, and no other's", { skip }, async () => {
    const db = store.db as unknown as Kysely<unknown>;
    const schema = new URL(mine.url).searchParams.get('options')!.replace('-c search_path=', '');
    for (const withInternalKyselyTables of [false, true]) {
      const ours = await db.introspection.getTables({ withInternalKyselyTables });
      const kysely = (await kyselysTables(db, { withInternalKyselyTables })).filter(
        (t) => t.schema === schema,
      );
      assert.deepEqual(ours, kysely);
      assert.ok(ours.length > 20, `${ours.length} tables`);
      assert.equal(
        ours.some((t) => t.name === 'kysely_migration'),
        withInternalKyselyTables,
      );
    }
    const names = (await db.introspection.getTables()).map((t) => t.name);
    assert.ok(!names.includes('only_elsewhere'));
    assert.ok(names.includes('messages'));
  });

  test('an install already migrated starts again, beside the other one', { skip }, async () => {
    await migrateToLatest(store);
    await migrateToLatest(otherStore);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(
      store.db,
    );
    const { rows: others } = await sql<{
      n: number;
    }>`select count(*)::int as n from kysely_migration`.execute(otherStore.db);
    assert.equal(rows[0]!.n, others[0]!.n, 'each schema records its own migrations once');
  });

  test("a migration waits for one of its own schema, and not for another schema's", { skip }, async () => {
    const adapter = store.db.getExecutor().adapter;
    const options = { lockTable: 'kysely_migration_lock', lockRowId: 'migration_lock' };
    await store.db.connection().execute(async (held) => {
      await adapter.acquireMigrationLock(held, options);
      let released = false;
      try {
        // Would wait for ever behind a lock of the whole database.
        await migrateToLatest(otherStore);
        const second = openStore(mine.url);
        try {
          const waiting = migrateToLatest(second);
          // The same schema's migration waits: its lock request is in pg_locks, not granted.
          await eventually(async () => {
            const { rows } = await sql<{ n: number }>`
              select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(
              store.db,
            );
            return rows[0]!.n > 0;
          });
          await adapter.releaseMigrationLock(held, options);
          released = true;
          await waiting;
        } finally {
          await second.close();
        }
      } finally {
        if (!released) await adapter.releaseMigrationLock(held, options);
      }
    });
  });
});
