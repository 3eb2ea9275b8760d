/**
 * A network status with the gateway's own event hooks (src/store/event-outbox.ts), on SQLite and on
 * PostgreSQL, where a status moving a known message is applied with its event in one statement
 * (src/store/status-with-event.ts): both stores must write the same things. The message moves only
 * forward and never after FAILED; each step joins its history once; an account with endpoints gets one
 * `message.status` event carrying the network's object, and a pending delivery to each enabled endpoint
 * subscribed to the type, each with its own id; an account without endpoints keeps no event.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventPayloads } from '../../src/app/open-storage.ts';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { statusEvents } from '../../src/store/event-outbox.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const claim = (accountId: string, clientId: string) => ({
  id: `msg_${clientId}_${Math.random().toString(36).slice(2)}`,
  accountId,
  clientMessageId: clientId,
  requestHash: 'h',
  kind: 'text',
  fromPhone: '14155550100',
  toPhone: '254712345678',
  content: '{}',
  createdAt: Date.now(),
  updatedAt: Date.now(),
});

async function endpoint(repos: Repositories, accountId: string, name: string, events: string[]) {
  return repos.webhooks.createEndpoint(
    {
      account_id: accountId,
      url: `https://hooks.example.com/${name}`,
      events: JSON.stringify(events),
      secret_enc: 'sealed',
    },
    Date.now(),
  );
}

for (const target of targets) {
  describe(`network statuses write their events, on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;
    let wakes = 0;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(
        store,
        statusEvents(() => wakes++, eventPayloads),
      );
    });

    const eventsOf = (accountId: string) =>
      store.db
        .selectFrom('events')
        .select(['id', 'type', 'payload', 'created_at'])
        .where('account_id', '=', accountId)
        .orderBy('id')
        .execute();
    const deliveriesOf = (accountId: string) =>
      store.db
        .selectFrom('deliveries')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('endpoint_id')
        .execute();

    test('an event per step, delivered to the enabled endpoints subscribed to it', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Hooked');
      const statuses = await endpoint(repos, account.id, 'statuses', ['message.status']);
      const both = await endpoint(repos, account.id, 'both', ['message.received', 'message.status']);
      await endpoint(repos, account.id, 'received', ['message.received']);
      const off = await endpoint(repos, account.id, 'off', ['message.status']);
      await repos.webhooks.updateEndpointOfAccount(
        account.id,
        off.id,
        { disabled_at: Date.now() },
        Date.now(),
      );
      const message = claim(account.id, 'hooked-1');
      await repos.messages.reserve(message);
      await repos.messages.markAccepted(message, 'wamid.HOOKED1', 1_000);
      // The send's own outcome: one SENT event, with the network id it recorded.
      const sent = await eventsOf(account.id);
      assert.equal(sent.length, 1);
      assert.deepEqual(
        {
          ...JSON.parse(sent[0]!.payload).data,
          statusDesc: undefined,
        },
        {
          messageId: 'hooked-1',
          waId: 'wamid.HOOKED1',
          from: '14155550100',
          to: '254712345678',
          status: 'SENT',
          statusDesc: undefined,
          timestamp: new Date(1_000).toISOString(),
        },
      );
      assert.equal(
        (await deliveriesOf(account.id)).length,
        2,
        'delivered to the two subscribed, enabled endpoints',
      );
      const sentEvents = sent.length;
      wakes = 0;

      const reported = { id: 'wamid.HOOKED1', status: 'delivered', pricing: { category: 'service' } };
      assert.equal(
        await repos.messages.applyNetworkStatus('wamid.HOOKED1', 'DELIVERED', 2_000, null, reported),
        true,
      );
      assert.equal(wakes, 1, 'the dispatcher is woken once');
      const events = await eventsOf(account.id);
      assert.equal(events.length, sentEvents + 1);
      // The new event, not the last by id: two events made in one millisecond sort by their random part.
      const event = events.find((e) => !sent.some((s) => s.id === e.id))!;
      assert.equal(event.type, 'message.status');
      const body = JSON.parse(event.payload);
      assert.equal(body.type, 'message.status');
      assert.equal(body.timestamp, new Date(Number(event.created_at)).toISOString());
      assert.deepEqual(body.data, {
        messageId: 'hooked-1',
        waId: 'wamid.HOOKED1',
        from: '14155550100',
        to: '254712345678',
        status: 'DELIVERED',
        statusDesc: body.data.statusDesc,
        timestamp: new Date(2_000).toISOString(),
        network: reported,
      });
      assert.equal(typeof body.data.statusDesc, 'string');

      const deliveries = (await deliveriesOf(account.id)).filter((d) => d.event_id === event.id);
      assert.deepEqual(deliveries.map((d) => d.endpoint_id).sort(), [statuses.id, both.id].sort());
      for (const d of deliveries) {
        assert.match(d.id, /^dlv_[0-9a-z]{26}$/);
        assert.equal(d.id.slice(4, 14), event.id.slice(4, 14), "the delivery's id carries the event's time");
        assert.equal(d.status, 'pending');
        assert.equal(Number(d.attempt_count), 0);
        assert.equal(Number(d.next_attempt_at), Number(event.created_at));
        assert.equal(d.locked_until, null);
      }
      assert.notEqual(deliveries[0]!.id, deliveries[1]!.id);

      const delivered = (await repos.messages.timeline(message.id))
        .filter((s) => s.status === 'DELIVERED')
        .map((s) => ({ ...s, at: Number(s.at) }));
      assert.deepEqual(delivered, [{ status: 'DELIVERED', at: 2_000, error: null }]);
    });

    test('a repeated or older status writes nothing; nothing moves after FAILED', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Ordered');
      await endpoint(repos, account.id, 'ordered', ['message.status']);
      const message = claim(account.id, 'ordered-1');
      await repos.messages.reserve(message);
      await repos.messages.markAccepted(message, 'wamid.ORDERED1', 1_000);
      await repos.messages.applyNetworkStatus('wamid.ORDERED1', 'READ', 3_000, null);
      const afterRead = (await eventsOf(account.id)).length;
      await repos.messages.applyNetworkStatus('wamid.ORDERED1', 'READ', 3_000, null);
      await repos.messages.applyNetworkStatus('wamid.ORDERED1', 'DELIVERED', 2_000, null);
      assert.equal((await eventsOf(account.id)).length, afterRead, 'no event for a repeat or a late step');
      assert.equal((await repos.messages.findByNetworkId('wamid.ORDERED1'))?.status, 'READ');
      const steps = (await repos.messages.timeline(message.id)).map((s) => s.status);
      assert.equal(steps.filter((s) => s === 'READ').length, 1);
      assert.equal(steps.filter((s) => s === 'DELIVERED').length, 1, 'the late step joins the history once');

      const failing = claim(account.id, 'failing-1');
      await repos.messages.reserve(failing);
      await repos.messages.markAccepted(failing, 'wamid.FAILING1', 1_000);
      const error = JSON.stringify({ code: 131026, title: 'Message undeliverable' });
      await repos.messages.applyNetworkStatus('wamid.FAILING1', 'FAILED', 2_000, error);
      const failed = await repos.messages.findByNetworkId('wamid.FAILING1');
      assert.equal(failed?.status, 'FAILED');
      assert.equal(failed?.error, error);
      const count = (await eventsOf(account.id)).length;
      await repos.messages.applyNetworkStatus('wamid.FAILING1', 'READ', 3_000, null);
      assert.equal((await repos.messages.findByNetworkId('wamid.FAILING1'))?.status, 'FAILED');
      assert.equal((await eventsOf(account.id)).length, count);
    });

    test("a send's failure is one FAILED event with the stored error", { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Refused');
      await endpoint(repos, account.id, 'refused', ['message.status']);
      const message = claim(account.id, 'refused-1');
      await repos.messages.reserve(message);
      const error = JSON.stringify({
        httpStatus: 400,
        code: 'invalid_recipient',
        message: 'not on WhatsApp',
      });
      await repos.messages.markFailed(message, 1_000, error);
      const stored = await repos.messages.findByClientId(account.id, 'refused-1');
      assert.equal(stored?.status, 'FAILED');
      assert.equal(stored?.error, error);
      const events = await eventsOf(account.id);
      assert.equal(events.length, 1);
      const data = JSON.parse(events[0]!.payload).data;
      assert.equal(data.status, 'FAILED');
      assert.equal(data.waId, null);
      assert.deepEqual(data.error, JSON.parse(error));
      assert.equal((await deliveriesOf(account.id)).length, 1);
      assert.deepEqual(
        (await repos.messages.timeline(message.id)).map((s) => s.status),
        ['FAILED'],
      );
    });

    test('an account without endpoints keeps no event, and its message still moves', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Quiet');
      const message = claim(account.id, 'quiet-1');
      await repos.messages.reserve(message);
      await repos.messages.markAccepted(message, 'wamid.QUIET1', 1_000);
      wakes = 0;
      await repos.messages.applyNetworkStatus('wamid.QUIET1', 'DELIVERED', 2_000, null);
      assert.equal((await repos.messages.findByNetworkId('wamid.QUIET1'))?.status, 'DELIVERED');
      assert.equal((await eventsOf(account.id)).length, 0);
      assert.equal((await deliveriesOf(account.id)).length, 0);
      assert.equal(wakes, 0);
      const steps = (await repos.messages.timeline(message.id)).map((s) => s.status);
      assert.ok(steps.includes('DELIVERED'));
    });
  });
}
