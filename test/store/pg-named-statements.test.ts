/**
 * PostgreSQL connections prepare repeated data statements once, by name, and never a statement that
 * selects or returns `*` (whose result columns a later migration could change under it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { createPostgresSchema, type PostgresSchema, postgresSkipReason } from '../support/postgres.ts';

describe('PostgreSQL statements prepared per connection', async () => {
  const skip = await postgresSkipReason();
  let schema: PostgresSchema;
  let store: Store;

  before(async () => {
    if (skip) return;
    schema = await createPostgresSchema();
    // One connection, so every statement below runs on the one whose prepared statements are read.
    store = openStore(schema.url, { poolSize: 1 });
    await migrateToLatest(store);
  });
  after(async () => {
    if (skip) return;
    await store.close();
    await schema.drop();
  });

  test('a repeated select is prepared once; select * and DDL are not prepared', { skip }, async () => {
    for (const id of ['acc_a', 'acc_b', 'acc_c']) {
      const rows = await store.db
        .selectFrom('accounts')
        .select(['id', 'name'])
        .where('id', '=', id)
        .execute();
      assert.deepEqual(rows, []);
    }
    await store.db.selectFrom('accounts').selectAll().execute();
    await store.db
      .insertInto('accounts')
      .values({ id: 'acc_x', name: 'X', join_code: 'x-y-1', created_at: 1 })
      .returningAll()
      .execute();

    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      store.db,
    );
    const statements = prepared.rows.map((r) => r.statement);
    assert.equal(statements.filter((s) => s.includes('select "id", "name" from "accounts"')).length, 1);
    assert.equal(statements.filter((s) => /\*/.test(s)).length, 0, statements.join('\n'));
    assert.equal(statements.filter((s) => /create|alter/i.test(s)).length, 0);
  });
});
