/**
 * Opt-outs (src/domain/opt-outs.ts over src/store/opt-outs-repo.ts), on SQLite and PostgreSQL: a keyword
 * opts out once (a repeat changes nothing and records no second event), the opt-out is found only in its
 * own account, START lifts it, and each change writes its event for the account's endpoint. A stop of
 * the number's marketing in WhatsApp's settings is kept as such, and resuming there lifts it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import {
  applyMarketingPreference,
  applyOptOutKeyword,
  DEFAULT_OPT_IN_KEYWORDS,
  DEFAULT_OPT_OUT_KEYWORDS,
  optOutByNetwork,
} from '../../src/domain/opt-outs.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const NUMBER = '14155550123';
const USER = '447911300001';
const AT = Date.UTC(2026, 10, 25, 12);
const KEYWORDS = { optOut: DEFAULT_OPT_OUT_KEYWORDS, optIn: DEFAULT_OPT_IN_KEYWORDS };

for (const target of targets) {
  describe(`opt-outs on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;

    const eventsOf = async (accountId: string) =>
      (
        await store.db
          .selectFrom('events')
          .select(['type', 'payload'])
          .where('account_id', '=', accountId)
          .execute()
      ).map((e) => ({ type: e.type, data: JSON.parse(e.payload).data }));

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('STOP opts out once, with one event; START lifts it; another account sees nothing', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Shop');
      const other = await createAccount(repos.accounts, 'Other');
      // An account keeps events only when it has an endpoint to deliver them to.
      await repos.webhooks.createEndpoint(
        { account_id: account.id, url: 'https://example.com/hook', events: '[]', secret_enc: 'sealed' },
        AT,
      );
      const message = { businessPhone: NUMBER, user: USER, text: 'stop!', at: AT };
      assert.equal(await applyOptOutKeyword(repos.optOuts, KEYWORDS, account.id, message), true);
      assert.equal(await applyOptOutKeyword(repos.optOuts, KEYWORDS, account.id, message), false, 'repeat');
      assert.deepEqual(await repos.optOuts.find(account.id, NUMBER, USER), {
        businessPhone: NUMBER,
        user: USER,
        at: AT,
        source: 'keyword',
        keyword: 'STOP',
      });
      assert.equal(await repos.optOuts.find(other.id, NUMBER, USER), undefined, 'scoped by account');
      assert.equal(
        await optOutByNetwork(repos.optOuts, account.id, { businessPhone: NUMBER, user: USER, at: AT }),
        false,
      );

      const back = { ...message, text: 'START', at: AT + 1000 };
      assert.equal(await applyOptOutKeyword(repos.optOuts, KEYWORDS, account.id, back), true);
      assert.equal(await repos.optOuts.find(account.id, NUMBER, USER), undefined);
      assert.equal(await applyOptOutKeyword(repos.optOuts, KEYWORDS, account.id, back), false, 'not out');

      const events = await eventsOf(account.id);
      assert.deepEqual(
        events.map((e) => [e.type, e.data.keyword]),
        [
          ['contact.opted_out', 'STOP'],
          ['contact.opted_in', 'START'],
        ],
      );
    });

    test("a stop in WhatsApp's settings is kept as such; resuming there lifts it", { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Settings Shop');
      const user = '447911300002';
      const stop = { businessPhone: NUMBER, user, at: AT, value: 'stop' as const };
      assert.equal(await applyMarketingPreference(repos.optOuts, account.id, stop), true);
      assert.equal(await applyMarketingPreference(repos.optOuts, account.id, stop), false, 'repeat');
      assert.deepEqual(await repos.optOuts.find(account.id, NUMBER, user), {
        businessPhone: NUMBER,
        user,
        at: AT,
        source: 'preference',
        keyword: null,
      });
      const resume = { ...stop, value: 'resume' as const, at: AT + 1000 };
      assert.equal(await applyMarketingPreference(repos.optOuts, account.id, resume), true);
      assert.equal(await repos.optOuts.find(account.id, NUMBER, user), undefined);
      assert.equal(await applyMarketingPreference(repos.optOuts, account.id, resume), false, 'not out');
    });

    test("a page of an account's opt-outs, newest first, narrowed by number and user; others' never", {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Listing Shop');
      const other = await createAccount(repos.accounts, 'Other Shop');
      const out = (accountId: string, businessPhone: string, user: string, at: number) =>
        repos.optOuts.optOut(
          accountId,
          { businessPhone, user, at, source: 'keyword', keyword: 'STOP' },
          () => ({}),
        );
      await out(account.id, '14155550171', '447911300011', AT + 1);
      await out(account.id, '14155550171', '447911300012', AT + 3);
      await out(account.id, '14155550172', '447911300011', AT + 2);
      await out(other.id, '14155550173', '447911300013', AT + 4);
      const page = (filter: { businessPhone?: string; user?: string }, offset = 0, limit = 10) =>
        repos.optOuts.list(account.id, filter, { offset, limit });
      const keys = (r: { optOuts: { businessPhone: string; user: string }[] }) =>
        r.optOuts.map((o) => `${o.businessPhone}/${o.user}`);
      const all = await page({});
      assert.equal(all.total, 3, "another account's are not counted");
      assert.deepEqual(keys(all), [
        '14155550171/447911300012',
        '14155550172/447911300011',
        '14155550171/447911300011',
      ]);
      assert.deepEqual(keys(await page({}, 1, 1)), ['14155550172/447911300011']);
      const ofNumber = await page({ businessPhone: '14155550171' });
      assert.deepEqual(
        [ofNumber.total, keys(ofNumber)],
        [2, ['14155550171/447911300012', '14155550171/447911300011']],
      );
      const ofUser = await page({ user: '447911300011' });
      assert.deepEqual(
        [ofUser.total, keys(ofUser)],
        [2, ['14155550172/447911300011', '14155550171/447911300011']],
      );
      assert.deepEqual(await page({ businessPhone: '14155550173' }), { optOuts: [], total: 0 });
    });
  });
}
