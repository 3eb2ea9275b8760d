/**
 * Text is stored without NUL characters and without lone surrogates, the same way on SQLite and PostgreSQL
 * (src/store/storable-parameters.ts): each becomes U+FFFD, in written values and in the values a query
 * looks for, in single parameters and in lists. PostgreSQL's text cannot hold NUL; before, such a value
 * made the statement, and the request, fail. A lone surrogate was turned into U+FFFD by each store's UTF-8
 * encoding, so what was stored differed from what the gateway answered.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { storableParameters } from '../../src/store/storable-parameters.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

test('parameters keep their identity when all their text is storable, and lose only what is not', () => {
  const clean = ['a', 1, null, ['b', 'c'], Buffer.from([0]), 'a pair: \uD83D\uDCA5'];
  assert.equal(storableParameters(clean), clean, 'nothing copied');
  assert.deepEqual(
    storableParameters(['a\u0000b', 2, ['c', '\u0000'], Buffer.from([0]), 'lone \uD800 and \uDC00']),
    ['a\uFFFDb', 2, ['c', '\uFFFD'], Buffer.from([0]), 'lone \uFFFD and \uFFFD'],
  );
});

for (const target of storeTargets) {
  describe(`storable text on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('a value holding NUL is stored with U+FFFD, and found by the same value', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Nul\u0000Co');
      const byId = await store.db
        .selectFrom('accounts')
        .select('name')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      assert.equal(byId.name, 'Nul\uFFFDCo');
      const byName = await store.db
        .selectFrom('accounts')
        .select('id')
        .where('name', '=', 'Nul\u0000Co')
        .execute();
      assert.deepEqual(
        byName.map((r) => r.id),
        [account.id],
      );
    });

    test('a value holding a lone surrogate is stored with U+FFFD, and found by the same value', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Lone \uD800 Co');
      const byName = await store.db
        .selectFrom('accounts')
        .select(['id', 'name'])
        .where('name', '=', 'Lone \uD800 Co')
        .execute();
      assert.deepEqual(
        byName.map((r) => [r.id, r.name]),
        [[account.id, 'Lone \uFFFD Co']],
      );
    });

    // Lists are PostgreSQL arrays; SQLite takes them as JSON text, whose NULs are escaped.
    if (target.name === 'postgres') {
      test('a list parameter holding NUL is stored the same way', { skip }, async () => {
        const rows = await sql<{ v: string }>`select unnest(${['x\u0000', 'y']}::text[]) as v`.execute(
          store.db,
        );
        assert.deepEqual(
          rows.rows.map((r) => r.v),
          ['x\uFFFD', 'y'],
        );
      });
    }
  });
}
