/**
 * The inbox's saved replies in the store (src/store/saved-replies-repo.ts), on SQLite and PostgreSQL:
 * listed by shortcut, a shortcut once per account, no more than the cap, removed, and every query scoped
 * by account.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { SavedReply } from '../../src/domain/ports/saved-replies.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { savedRepliesRepo } from '../../src/store/saved-replies-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

for (const target of storeTargets) {
  describe(`saved replies on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let n = 0;
    const reply = (accountId: string, shortcut: string, text = `Text of ${shortcut}`): SavedReply => ({
      id: `svr_${++n}`,
      accountId,
      shortcut,
      text,
      createdAt: 1_000 + n,
    });

    openForSuite(target, skip, (opened) => {
      store = opened;
    });

    test('listed by shortcut; a shortcut once per account; at most the cap', { skip }, async () => {
      const repos = createRepositories(store);
      const a = (await createAccount(repos.accounts, 'A')).id;
      const b = (await createAccount(repos.accounts, 'B')).id;
      const saved = savedRepliesRepo(store.db);
      assert.equal(await saved.insert(reply(a, 'hours', 'We open at 9.'), 3), 'stored');
      assert.equal(await saved.insert(reply(a, 'address'), 3), 'stored');
      assert.equal(await saved.insert(reply(a, 'hours', 'Another text'), 3), 'taken');
      assert.equal(await saved.insert(reply(b, 'hours'), 3), 'stored', 'another account has its own names');
      assert.equal(await saved.insert(reply(a, 'refunds'), 3), 'stored');
      assert.equal(await saved.insert(reply(a, 'returns'), 3), 'full');
      const listed = await saved.list(a);
      assert.deepEqual(
        listed.map((r) => r.shortcut),
        ['address', 'hours', 'refunds'],
      );
      assert.equal(listed[1]!.text, 'We open at 9.', 'the first text stays');
      assert.equal(typeof listed[0]!.createdAt, 'number');
      assert.deepEqual(
        (await saved.list(b)).map((r) => r.accountId),
        [b],
      );
    });

    test('found and removed only within their account', { skip }, async () => {
      const repos = createRepositories(store);
      const a = (await createAccount(repos.accounts, 'C')).id;
      const b = (await createAccount(repos.accounts, 'D')).id;
      const saved = savedRepliesRepo(store.db);
      const mine = reply(a, 'thanks', 'Thank you!');
      await saved.insert(mine, 200);
      assert.equal((await saved.find(a, mine.id))?.text, 'Thank you!');
      assert.equal(await saved.find(b, mine.id), undefined, "another account's is not found");
      assert.equal(await saved.remove(b, mine.id), false, 'nor removed');
      assert.equal(await saved.remove(a, mine.id), true);
      assert.equal(await saved.find(a, mine.id), undefined);
      assert.equal(await saved.remove(a, mine.id), false);
    });
  });
}
