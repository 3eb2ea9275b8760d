/**
 * The reads and claims every send and status make, asked by many requests at once, on SQLite and on
 * PostgreSQL (where they go as batched statements, src/store/batched-statements.ts): each read answers its
 * own key, revoked and unknown keys find nothing, and of claims of one messageId exactly one wins, even
 * within one statement.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventPayloads } from '../../src/app/open-storage.ts';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { statusEvents } from '../../src/store/event-outbox.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const SANDBOX = '14155550100';

/** A send's claim: message `msg_<name>`, messageId `<name>` unless given. */
const claimFor = (accountId: string, name: string, to = '254712340001', clientMessageId = name) => ({
  id: `msg_${name}`,
  accountId,
  clientMessageId,
  requestHash: `h-${name}`,
  kind: 'text',
  fromPhone: SANDBOX,
  toPhone: to,
  content: '{}',
  createdAt: 1,
  updatedAt: 1,
});

/** An endpoint of the account that takes `message.status` events. */
const statusEndpoint = (repos: Repositories, accountId: string, name: string) =>
  repos.webhooks.createEndpoint(
    {
      account_id: accountId,
      url: `https://hooks.example.com/${name}`,
      events: JSON.stringify(['message.status']),
      secret_enc: 'sealed',
    },
    Date.now(),
  );

for (const target of targets) {
  describe(`reads and claims asked at once, on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      // The gateway's own hooks: statuses and outcomes write their events (src/store/event-outbox.ts).
      repos = createRepositories(
        store,
        statusEvents(() => {}, eventPayloads),
      );
    });

    test('API keys: each request finds its own key, none a revoked one', { skip }, async () => {
      const accounts = await Promise.all(
        ['One', 'Two', 'Three'].map((n) => createAccount(repos.accounts, n)),
      );
      const keys = accounts.map((a, i) => ({ id: `key_batch${i}`, accountId: a.id, hash: `hash-${i}` }));
      for (const k of keys)
        await store.db
          .insertInto('api_keys')
          .values({
            id: k.id,
            account_id: k.accountId,
            hash: k.hash,
            name: 'k',
            prefix: 'sk_',
            created_at: 1,
            revoked_at: null,
          })
          .execute();
      await store.db.updateTable('api_keys').set({ revoked_at: 2 }).where('id', '=', 'key_batch2').execute();
      const asked = Array.from(
        { length: 60 },
        (_, i) => [`hash-${i % 3}`, 'hash-none'][i % 5 === 4 ? 1 : 0]!,
      );
      const found = await Promise.all(asked.map((h) => repos.accounts.findLiveKeyOwner(h)));
      asked.forEach((hash, i) => {
        const expected = hash === 'hash-0' ? keys[0] : hash === 'hash-1' ? keys[1] : undefined;
        assert.deepEqual(
          found[i],
          expected && { accountId: expected.accountId, keyId: expected.id },
          `read ${i} of ${hash}`,
        );
      });
    });

    test('sandbox memberships with their windows, each for its own user', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Sandboxed');
      const users = Array.from({ length: 20 }, (_, i) => `2547123400${String(i).padStart(2, '0')}`);
      for (const [i, user] of users.entries()) {
        if (i % 4 === 3) continue;
        await repos.conversations.joinSandbox(SANDBOX, user, account.id, 1_000);
        if (i % 2 === 0) await repos.conversations.recordInbound(SANDBOX, user, 5_000 + i);
      }
      const found = await Promise.all(users.map((u) => repos.conversations.sandboxMembership(SANDBOX, u)));
      users.forEach((_, i) => {
        const expected =
          i % 4 === 3
            ? undefined
            : { accountId: account.id, lastInboundAt: i % 2 === 0 ? 5_000 + i : undefined };
        assert.deepEqual(found[i], expected, `user ${i}`);
      });
    });

    test('claims of many sends at once: one winner per messageId, the others find it', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Claims');
      const claimOf = (n: number, copy: number) =>
        claimFor(account.id, `claim_${n}_${copy}`, undefined, `claim-${n}`);
      // One messageId is taken before; the others are claimed twice at once.
      assert.equal(await repos.messages.reserve(claimOf(0, 9)), null);
      const claims = Array.from({ length: 20 }, (_, n) => [claimOf(n, 0), claimOf(n, 1)]).flat();
      const results = await Promise.all(claims.map((c) => repos.messages.reserve(c)));
      for (let n = 0; n < 20; n++) {
        const [a, b] = [results[2 * n], results[2 * n + 1]];
        if (n === 0) {
          assert.equal(a?.id, 'msg_claim_0_9');
          assert.equal(b?.id, 'msg_claim_0_9');
          continue;
        }
        const winners = [a, b].filter((r) => r === null).length;
        assert.equal(winners, 1, `messageId claim-${n}: exactly one claim wins`);
        const holder = a ?? b;
        assert.equal(holder?.clientMessageId, `claim-${n}`);
        assert.equal(
          holder?.id,
          a === null ? `msg_claim_${n}_0` : `msg_claim_${n}_1`,
          'the loser sees the winner',
        );
      }
    });

    test('outcomes of many sends at once, each with its own event', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Outcomes');
      await statusEndpoint(repos, account.id, 'outcomes');
      const claims = Array.from({ length: 24 }, (_, i) =>
        claimFor(account.id, `outcome-${i}`, `2547123401${String(i).padStart(2, '0')}`),
      );
      for (const claim of claims) await repos.messages.reserve(claim);
      // Every third send is refused; one accepted send was settled FAILED first and must not move.
      await repos.messages.markFailed(claims[1]!, 500, '{"code":"first"}');
      await Promise.all(
        claims.map((c, i) =>
          i % 3 === 2
            ? repos.messages.markFailed(c, 1_000, `{"n":${i}}`)
            : repos.messages.markAccepted(c, `wamid.O${i}`, 1_000),
        ),
      );
      const events = await store.db
        .selectFrom('events')
        .select(['id', 'payload'])
        .where('account_id', '=', account.id)
        .execute();
      const data = events.map((e) => JSON.parse(e.payload).data);
      for (const [i, claim] of claims.entries()) {
        const stored = await repos.messages.findByClientId(account.id, claim.clientMessageId);
        const mine = data.filter((d) => d.messageId === claim.clientMessageId);
        if (i === 1) {
          assert.deepEqual(
            [stored?.status, stored?.waId, stored?.error],
            ['FAILED', null, '{"code":"first"}'],
          );
          assert.deepEqual(
            mine.map((d) => d.status),
            ['FAILED'],
            'no event for the outcome that did not move it',
          );
        } else if (i % 3 === 2) {
          assert.deepEqual([stored?.status, stored?.waId, stored?.error], ['FAILED', null, `{"n":${i}}`]);
          assert.deepEqual(
            mine.map((d) => [d.status, d.waId, d.to, d.error]),
            [['FAILED', null, claim.toPhone, { n: i }]],
          );
        } else {
          assert.deepEqual([stored?.status, stored?.waId], ['SENT', `wamid.O${i}`]);
          assert.deepEqual(
            mine.map((d) => [d.status, d.waId, d.to]),
            [['SENT', `wamid.O${i}`, claim.toPhone]],
          );
        }
      }
      const deliveries = await store.db
        .selectFrom('deliveries')
        .select(['id', 'event_id'])
        .where('account_id', '=', account.id)
        .execute();
      assert.equal(deliveries.length, events.length, 'one delivery per event to the one endpoint');
      assert.equal(new Set(deliveries.map((d) => d.id)).size, deliveries.length);
    });

    test('delivered and read of many messages posted at once: each step moves it once, in order', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Both at once');
      await statusEndpoint(repos, account.id, 'both');
      const claims = Array.from({ length: 12 }, (_, i) => claimFor(account.id, `both-${i}`, '254712340002'));
      for (const [i, claim] of claims.entries()) {
        await repos.messages.reserve(claim);
        await repos.messages.markAccepted(claim, `wamid.BOTH${i}`, 1_000);
      }
      await Promise.all(
        claims.flatMap((_, i) => [
          repos.messages.applyNetworkStatus(`wamid.BOTH${i}`, 'DELIVERED', 2_000, null),
          repos.messages.applyNetworkStatus(`wamid.BOTH${i}`, 'READ', 3_000, null),
        ]),
      );
      const events = await store.db
        .selectFrom('events')
        .select('payload')
        .where('account_id', '=', account.id)
        .execute();
      const data = events.map((e) => JSON.parse(e.payload).data);
      for (const [i, claim] of claims.entries()) {
        assert.equal(
          (await repos.messages.findByNetworkId(`wamid.BOTH${i}`))?.status,
          'READ',
          `message ${i}`,
        );
        // Each message's delivered is asked before its read, and each moves it once, in that order.
        const mine = data.filter((d) => d.messageId === claim.clientMessageId).map((d) => d.status);
        assert.deepEqual(mine.sort(), ['DELIVERED', 'READ', 'SENT'], `one event per step of message ${i}`);
        const steps = (await repos.messages.timeline(claim.id)).map((st) => st.status);
        assert.deepEqual(steps, ['SENT', 'DELIVERED', 'READ'], `the history of message ${i}`);
      }
    });

    test('statuses of many messages at once, each applied to its own', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Statuses');
      const ids = Array.from({ length: 30 }, (_, i) => i);
      const claims = ids.map((i) => claimFor(account.id, `batch-${i}`));
      for (const [i, claim] of claims.entries()) {
        await repos.messages.reserve(claim);
        // A third of the statuses come before the send recorded the network id.
        if (i % 3 === 0) await repos.messages.applyNetworkStatus(`wamid.B${i}`, 'DELIVERED', 2_000, null);
      }
      await Promise.all(claims.map((c, i) => repos.messages.markAccepted(c, `wamid.B${i}`, 1_500)));
      await Promise.all(
        ids
          .filter((i) => i % 3 === 1)
          .map((i) => repos.messages.applyNetworkStatus(`wamid.B${i}`, 'READ', 3_000, null)),
      );
      for (const i of ids) {
        const expected = i % 3 === 0 ? 'DELIVERED' : i % 3 === 1 ? 'READ' : 'SENT';
        assert.equal((await repos.messages.findByNetworkId(`wamid.B${i}`))?.status, expected, `message ${i}`);
      }
    });
  });
}
