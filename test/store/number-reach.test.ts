/**
 * The users a number reached, for its messaging limit (src/store/number-reach-repo.ts), on SQLite and
 * PostgreSQL: new users are granted up to the limit and no further, users already reached or talking to
 * the number within 24 hours are free, reaches older than 24 hours leave room, and reservations made at
 * once (several connections on PostgreSQL) never grant past the limit together. Also the number's limit
 * itself: set, refused when it is none of Meta's, and set by the network's word. And the numbers of a
 * WhatsApp Business Account, found by its id.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import { REACH_WINDOW_MS } from '../../src/domain/campaigns/messaging-limit.ts';
import { GatewayError } from '../../src/domain/errors.ts';
import { recordReportedLimit, setNumberMessagingLimit } from '../../src/domain/numbers.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const AT = Date.UTC(2026, 10, 26, 9);
const users = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

for (const target of targets) {
  describe(`messaging limits on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    const reserve = (business: string, who: string[], limit: number, now: number) =>
      repos.numberReach.reserve({ business, users: who, limit, now, windowMs: REACH_WINDOW_MS });

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('new users up to the limit; the known and those talking to the number are free; 24 h later there is room', {
      skip,
    }, async () => {
      const first = await reserve('111', ['a', 'b', 'c', 'd', 'e'], 3, AT);
      assert.deepEqual([...first.allowed].sort(), ['a', 'b', 'c']);
      assert.equal(first.reached, 3);
      assert.equal(first.roomAt, AT + REACH_WINDOW_MS);

      await store.db
        .insertInto('conversation_windows')
        .values({ business_phone: '111', user_phone: 'talker', last_inbound_at: AT - 1000 })
        .execute();
      const second = await reserve('111', ['a', 'd', 'talker'], 3, AT + 60_000);
      assert.deepEqual([...second.allowed].sort(), ['a', 'talker'], 'd is new and there is no room');
      assert.equal(second.reached, 3);

      // Another number counts its own users.
      assert.deepEqual([...(await reserve('222', ['d'], 3, AT)).allowed], ['d']);

      const nextDay = await reserve('111', ['d', 'e', 'talker'], 3, AT + REACH_WINDOW_MS);
      assert.deepEqual([...nextDay.allowed].sort(), ['d', 'e', 'talker'], "the talker's window closed: new");
      assert.equal(nextDay.reached, 3);
    });

    test('reservations at once never grant past the limit together', { skip }, async () => {
      const grants = await Promise.all(
        Array.from({ length: 10 }, (_, i) => reserve('333', users(`u${i}-`, 5), 20, AT)),
      );
      const granted = grants.flatMap((g) => [...g.allowed]);
      assert.equal(granted.length, 20);
      assert.equal(new Set(granted).size, 20);
    });

    test("a number's limit is one of Meta's, set by its account or by the network's word", {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Limit Co');
      const other = await createAccount(repos.accounts, 'Other Co');
      await repos.numbers.addNumber({
        accountId: account.id,
        phone: '14155550199',
        phoneNumberId: '14155550199',
        sealedAccessToken: 'sealed',
        sessionCheck: true,
        wabaId: null,
      });
      const limitOf = async () => (await repos.numbers.findNumberByPhone('14155550199'))?.messagingLimit;
      assert.equal(await limitOf(), null, 'unlimited until set');
      await setNumberMessagingLimit(repos.numbers, account.id, '+1 415 555 0199', 1000);
      assert.equal(await limitOf(), 1000);
      await assert.rejects(setNumberMessagingLimit(repos.numbers, account.id, '+14155550199', 300), (e) => {
        assert.ok(e instanceof GatewayError);
        assert.equal(e.field, 'messagingLimit');
        assert.match(e.message, /250, 1000, 2000, 10000, 100000, or unlimited/);
        return true;
      });
      await assert.rejects(setNumberMessagingLimit(repos.numbers, other.id, '+14155550199', 250), (e) => {
        assert.ok(e instanceof GatewayError);
        assert.equal(e.code, 'not_found');
        return true;
      });
      await recordReportedLimit(repos.numbers, '14155550199', 'TIER_10K');
      assert.equal(await limitOf(), 10_000);
      await recordReportedLimit(repos.numbers, '14155550199', 'TIER_SOMETHING_NEW');
      assert.equal(await limitOf(), 10_000, 'a tier it does not know changes nothing');
      await recordReportedLimit(repos.numbers, '14155550199', 'TIER_UNLIMITED');
      assert.equal(await limitOf(), null);
    });

    test('the numbers of a WhatsApp Business Account, by its id or, registered without one, their own', {
      skip,
    }, async () => {
      const one = await createAccount(repos.accounts, 'Waba One');
      const two = await createAccount(repos.accounts, 'Waba Two');
      const add = (accountId: string, phone: string, wabaId: string | null) =>
        repos.numbers.addNumber({
          accountId,
          phone,
          phoneNumberId: `pn${phone}`,
          sealedAccessToken: 'sealed',
          sessionCheck: true,
          wabaId,
        });
      await add(one.id, '14155550301', '900100');
      await add(two.id, '14155550302', '900100');
      await add(one.id, '14155550303', '900200');
      await add(one.id, '14155550304', null);
      const phones = async (waba: string) =>
        (await repos.numbers.numbersOfWaba(waba)).map((n) => n.phone).sort();
      assert.deepEqual(
        await phones('900100'),
        ['14155550301', '14155550302'],
        'whichever account holds them',
      );
      assert.deepEqual(await phones('900200'), ['14155550303']);
      assert.deepEqual(await phones('pn14155550304'), ['14155550304'], 'its own WABA');
      assert.deepEqual(await phones('pn14155550301'), [], 'a number with a WABA id is not its own WABA');
      assert.deepEqual(await phones('900300'), []);
    });
  });
}
