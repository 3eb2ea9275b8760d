/**
 * An event written into the outbox (insertEvent, src/store/webhooks-repo.ts), on SQLite and on PostgreSQL,
 * where it is one statement (src/store/pg-event-statement.ts): an account without endpoints keeps no
 * event; otherwise the event is written with one pending delivery, due at once, to each enabled endpoint
 * subscribed to its type, and to no other; each delivery has an id of its own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

for (const target of storeTargets) {
  describe(`events written into the outbox on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    const endpoint = (accountId: string, name: string, events: string[]) =>
      repos.webhooks.createEndpoint(
        {
          account_id: accountId,
          url: `https://hooks.example.com/${name}`,
          events: JSON.stringify(events),
          secret_enc: 'sealed',
        },
        Date.now(),
      );

    const eventsOf = (accountId: string) =>
      store.db.selectFrom('events').selectAll().where('account_id', '=', accountId).execute();
    const deliveriesOf = (accountId: string) =>
      store.db.selectFrom('deliveries').selectAll().where('account_id', '=', accountId).execute();

    test('an account without endpoints keeps no event', { skip }, async () => {
      const accountId = (await createAccount(repos.accounts, 'No Hooks')).id;
      let built = false;
      const id = await insertEvent(
        store.db,
        accountId,
        'contact.opted_out',
        () => {
          built = true;
          return { phone: '+254712300001' };
        },
        Date.now(),
      );
      assert.equal(id, null);
      assert.deepEqual(await eventsOf(accountId), []);
      assert.deepEqual(await deliveriesOf(accountId), []);
      // SQLite learns there is no endpoint before it builds the payload; PostgreSQL builds it first.
      assert.equal(built, target.name === 'postgres');
    });

    test('one delivery to each enabled endpoint subscribed to the type, and none to any other', {
      skip,
    }, async () => {
      const accountId = (await createAccount(repos.accounts, 'Hooks')).id;
      const subscribed = await endpoint(accountId, 'a', ['message.received', 'message.status']);
      const alsoSubscribed = await endpoint(accountId, 'b', ['message.received']);
      const otherType = await endpoint(accountId, 'c', ['message.status']);
      const disabled = await endpoint(accountId, 'd', ['message.received']);
      await store.db
        .updateTable('webhook_endpoints')
        .set({ disabled_at: Date.now() })
        .where('id', '=', disabled.id)
        .execute();
      // Another account's endpoint, subscribed to the same type, hears nothing of it.
      const other = (await createAccount(repos.accounts, 'Other')).id;
      await endpoint(other, 'e', ['message.received']);

      const at = Date.now();
      const ids = [
        await insertEvent(store.db, accountId, 'message.received', { n: 1 }, at),
        await insertEvent(store.db, accountId, 'message.received', { n: 2 }, at),
      ];
      const events = await eventsOf(accountId);
      assert.deepEqual(events.map((e) => e.id).sort(), [...ids].sort());
      const first = events.find((e) => e.id === ids[0])!;
      assert.equal(first.type, 'message.received');
      assert.deepEqual(JSON.parse(first.payload).data, { n: 1 });

      const deliveries = await deliveriesOf(accountId);
      assert.equal(deliveries.length, 4, 'two events, two endpoints each');
      for (const d of deliveries) {
        assert.ok([subscribed.id, alsoSubscribed.id].includes(d.endpoint_id), d.endpoint_id);
        assert.notEqual(d.endpoint_id, otherType.id);
        assert.equal(d.status, 'pending');
        assert.equal(d.attempt_count, 0);
        const event = events.find((e) => e.id === d.event_id)!;
        assert.equal(d.next_attempt_at, event.created_at, 'due when its event was recorded');
        assert.match(d.id, /^dlv_[0-9a-z]{26}$/);
      }
      assert.equal(new Set(deliveries.map((d) => d.id)).size, 4, 'each delivery has its own id');
      assert.deepEqual(await deliveriesOf(other), []);
    });
  });
}
