/**
 * Replaying an endpoint's events (src/store/webhooks-repo.ts, `replaySinceOfAccount`), on SQLite and
 * PostgreSQL: oldest first, a page at a time with the time to go on from, only the endpoint's types, and
 * never a second delivery of an event whose delivery to the endpoint is still pending, so that repeating a
 * replay adds nothing while the first is under way.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

/** Events are dated by the later of the clock and their own time: these are a day ahead, so in order. */
const T0 = Date.now() + 86_400_000;

for (const target of storeTargets) {
  describe(`webhook replays on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('a page at a time, oldest first, each event once while its delivery is pending', {
      skip,
    }, async () => {
      const accountId = (await createAccount(repos.accounts, 'Replay Co')).id;
      const endpoint = await repos.webhooks.createEndpoint(
        {
          account_id: accountId,
          url: 'https://hooks.example.com/replay',
          events: JSON.stringify(['message.received']),
          secret_enc: 'sealed',
        },
        T0,
      );
      // Five events of the endpoint's type and one of another, each delivered already.
      for (let i = 0; i < 5; i++)
        await insertEvent(store.db, accountId, 'message.received', { n: i }, T0 + i);
      await insertEvent(store.db, accountId, 'template.status', { n: 9 }, T0 + 9);
      const delivered = () =>
        store.db
          .updateTable('deliveries')
          .set({ status: 'succeeded' })
          .where('endpoint_id', '=', endpoint.id)
          .execute();
      await delivered();
      const replay = (since: number) =>
        repos.webhooks.replaySinceOfAccount(accountId, endpoint, since, T0 + 20, 2);
      /** The events pending to the endpoint, in the order their deliveries are due (time, then id). */
      const dueOrder = async () => {
        const rows = await store.db
          .selectFrom('deliveries')
          .innerJoin('events', 'events.id', 'deliveries.event_id')
          .select('events.payload')
          .where('deliveries.endpoint_id', '=', endpoint.id)
          .where('deliveries.status', '=', 'pending')
          .orderBy('deliveries.next_attempt_at')
          .orderBy('deliveries.id')
          .execute();
        return rows.map((r) => JSON.parse(r.payload).data.n as number);
      };
      const pending = async () => (await dueOrder()).sort();

      assert.deepEqual(await replay(T0), { queued: 2, next: T0 + 2 });
      assert.deepEqual(await pending(), [0, 1]);
      // The same replay again: the two still pending are not queued twice; the next two are.
      assert.deepEqual(await replay(T0), { queued: 2, next: T0 + 4 });
      assert.deepEqual(await replay(T0 + 4), { queued: 1, next: null });
      assert.deepEqual(await pending(), [0, 1, 2, 3, 4]);
      assert.deepEqual(await replay(T0), { queued: 0, next: null }, 'all pending: nothing more');
      // Delivered, an event may be replayed again.
      await delivered();
      assert.deepEqual(await replay(T0 + 3), { queued: 2, next: null });

      // Replayed deliveries are due at the same time; their ids, which order those, follow the events'.
      await delivered();
      await repos.webhooks.replaySinceOfAccount(accountId, endpoint, T0, T0 + 30, 10);
      assert.deepEqual(await dueOrder(), [0, 1, 2, 3, 4]);
    });
  });
}
