/**
 * PostgreSQL connections prepare repeated data statements once, by name, and never a statement that
 * selects or returns `*` (whose result columns a later migration could change under it). The batched
 * statements of the send path name their columns, so that they are among the prepared ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { membersWithWindows } from '../../src/store/batched-statements.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { applyOutcomesWithEvents } from '../../src/store/outcomes-with-events.ts';
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

  test('the batched reads and outcomes of concurrent sends are prepared too', { skip }, async () => {
    const outcome = {
      messageId: 'msg_none',
      status: 'SENT',
      rank: 1,
      error: null,
      at: 1,
      stepId: 'mse_1',
      eventId: 'evt_1',
      eventAt: 1,
      payload: '{}',
      recordWaId: 'wamid.1',
    };
    for (const n of [1, 2, 3]) {
      assert.deepEqual(await membersWithWindows(store.db, [`14155550100\n2547000000${n}`]), []);
      const [applied] = await applyOutcomesWithEvents(store.db, [{ ...outcome, stepId: `mse_${n}` }]);
      assert.equal(applied?.moved, false);
    }
    const prepared = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      store.db,
    );
    const statements = prepared.rows.map((r) => r.statement);
    assert.equal(statements.filter((s) => s.includes('from sandbox_members m')).length, 1);
    assert.equal(statements.filter((s) => s.includes('update messages m set status = i.status')).length, 1);
  });
});
