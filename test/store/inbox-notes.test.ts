/**
 * Notes between members on a conversation (src/store/inbox-notes-repo.ts), on SQLite and PostgreSQL: the
 * newest ones, oldest first, each with its author's email while the author is a member of the account,
 * and every query scoped by account.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '../../src/store/connect.ts';
import { inboxNotesRepo } from '../../src/store/inbox-notes-repo.ts';
import { portalRepo } from '../../src/store/portal-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

for (const target of storeTargets) {
  describe(`inbox notes on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;

    openForSuite(target, skip, (opened) => {
      store = opened;
    });

    test('the newest notes, oldest first, named by their author while a member', { skip }, async () => {
      const portal = portalRepo(store.db);
      const signUp = (email: string) =>
        portal.signUp({ email, passwordHash: 'scrypt$x', businessName: email }, Date.now());
      const mine = (await signUp('agent@notes.example'))!;
      const other = (await signUp('other@notes.example'))!;
      const notes = inboxNotesRepo(store.db);
      const add = (id: string, accountId: string, authorId: string, at: number, conversationId = 'cnv_1') =>
        notes.add({ id, accountId, conversationId, authorId, text: `note ${id}`, createdAt: at });
      await add('nte_1', mine.user.accountId, mine.user.id, 1_000);
      await add('nte_2', mine.user.accountId, 'usr_gone', 2_000);
      await add('nte_3', mine.user.accountId, mine.user.id, 3_000);
      await add('nte_4', mine.user.accountId, mine.user.id, 4_000, 'cnv_2');
      await add('nte_5', other.user.accountId, other.user.id, 5_000);

      const listed = await notes.list(mine.user.accountId, 'cnv_1', 10);
      assert.deepEqual(
        listed.map((n) => [n.id, n.author, n.text, n.createdAt]),
        [
          ['nte_1', 'agent@notes.example', 'note nte_1', 1_000],
          ['nte_2', null, 'note nte_2', 2_000],
          ['nte_3', 'agent@notes.example', 'note nte_3', 3_000],
        ],
        "another conversation's and another account's are not listed; a former member is not named",
      );
      assert.deepEqual(
        (await notes.list(mine.user.accountId, 'cnv_1', 2)).map((n) => n.id),
        ['nte_2', 'nte_3'],
        'the newest two, oldest first',
      );
      // Another account's author id in this account's note is not named either.
      await add('nte_6', mine.user.accountId, other.user.id, 6_000);
      assert.equal((await notes.list(mine.user.accountId, 'cnv_1', 10)).at(-1)!.author, null);
    });
  });
}
