/**
 * The dashboard's counts (src/store/dashboard-repo.ts) on SQLite and PostgreSQL: sent messages per UTC day
 * and status, received per day, failures by stored error, template sends (whatever their parameters hold),
 * all within the range, for one number or all, and only of the account asked for.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const DAY = 86_400_000;
const D0 = Date.UTC(2026, 10, 20);

for (const target of targets) {
  describe(`dashboard counts on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    let n = 0;
    let a = '';
    let b = '';
    const message = (
      account: string,
      from: string,
      status: string,
      at: number,
      error: string | null = null,
      template?: { name: string; language: string },
    ) =>
      store.db
        .insertInto('messages')
        .values({
          id: `msg_${++n}`,
          account_id: account,
          client_message_id: `m${n}`,
          request_hash: 'h',
          kind: template ? 'template' : 'text',
          from_phone: from,
          to_phone: '447911000001',
          content: template
            ? JSON.stringify({
                type: 'template',
                template: {
                  name: template.name,
                  language: { code: template.language },
                  // A customer's value may hold anything, a NUL included (escaped in the JSON text).
                  components: [{ type: 'body', parameters: [{ type: 'text', text: 'Amina\u0000' }] }],
                },
              })
            : '{}',
          wa_id: null,
          status,
          status_rank: 0,
          error,
          created_at: at,
          updated_at: at,
        })
        .execute();
    const inbound = (account: string, business: string, at: number) =>
      store.db
        .insertInto('inbound_messages')
        .values({
          id: `in_${++n}`,
          account_id: account,
          wa_id: `wamid.${n}`,
          business_phone: business,
          user_phone: '447911000001',
          user_id: null,
          username: null,
          profile_name: null,
          type: 'text',
          payload: '{}',
          received_at: at,
          handled_at: at,
        })
        .execute();

    openForSuite(target, skip, async (opened) => {
      store = opened;
      repos = createRepositories(store);
      a = (await createAccount(repos.accounts, 'A')).id;
      b = (await createAccount(repos.accounts, 'B')).id;
      await message(a, '111', 'READ', D0 + 1000);
      await message(a, '111', 'DELIVERED', D0 + 2000);
      await message(a, '222', 'FAILED', D0 + DAY + 5, '{"code":"network_rejected"}');
      await message(a, '222', 'FAILED', D0 + DAY + 6, '{"code":"network_rejected"}');
      await message(a, '111', 'SENT', D0 + 3 * DAY); // out of the range below
      await message(b, '111', 'READ', D0 + 10);
      await inbound(a, '111', D0 + 50);
      await inbound(a, '222', D0 + DAY + 50);
      await inbound(b, '111', D0 + 60);
    });

    test('per day and status, within the range, per number, per account', { skip }, async () => {
      const range = { from: D0, until: D0 + 2 * DAY };
      const day0 = D0 / DAY;
      const sent = await repos.dashboard.sentByDay(a, range);
      assert.deepEqual(sent.map((r) => [r.day - day0, r.status, r.count]).sort(), [
        [0, 'DELIVERED', 1],
        [0, 'READ', 1],
        [1, 'FAILED', 2],
      ]);
      const received = await repos.dashboard.receivedByDay(a, range);
      assert.deepEqual(received.map((r) => [r.day - day0, r.count]).sort(), [
        [0, 1],
        [1, 1],
      ]);
      assert.deepEqual(await repos.dashboard.failures(a, range, 10), [
        { error: '{"code":"network_rejected"}', count: 2 },
      ]);
      const one = { ...range, number: '111' };
      assert.equal((await repos.dashboard.sentByDay(a, one)).length, 2);
      assert.deepEqual(await repos.dashboard.failures(a, one, 10), []);
      assert.deepEqual(
        (await repos.dashboard.receivedByDay(a, one)).map((r) => r.count),
        [1],
      );
      assert.deepEqual(await repos.dashboard.deliveriesByStatus(a, range), {});
    });

    test('template sends by template, language and status', { skip }, async () => {
      const at = D0 + 10 * DAY;
      const offer = { name: 'spring_offer', language: 'en' };
      await message(a, '111', 'READ', at, null, offer);
      await message(a, '111', 'READ', at + 1, null, offer);
      await message(a, '111', 'FAILED', at + 2, '{}', offer);
      await message(a, '111', 'DELIVERED', at + 3, null, { name: 'spring_offer', language: 'fr' });
      await message(a, '111', 'READ', at + 4); // not a template
      await message(b, '111', 'READ', at + 5, null, offer);
      const range = { from: at, until: at + DAY };
      const rows = await repos.dashboard.templatesByStatus(a, range);
      assert.deepEqual(rows.map((r) => [r.name, r.language, r.status, r.count]).sort(), [
        ['spring_offer', 'en', 'FAILED', 1],
        ['spring_offer', 'en', 'READ', 2],
        ['spring_offer', 'fr', 'DELIVERED', 1],
      ]);
    });
  });
}
