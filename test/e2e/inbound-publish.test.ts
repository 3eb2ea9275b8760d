/**
 * An inbound message stored but not published (the publishing transaction failed) was answered 500, so
 * the network delivers it again: the redelivery completes it, and the message is published exactly once,
 * even when several redeliveries arrive at once. On SQLite and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Store } from '../../src/store/connect.ts';
import { eventually, type TestAccount, type TestGateway } from '../support/gateway.ts';
import {
  inboundTextEnvelope,
  postNetworkWebhook,
  receivedEventsOf,
  storedInbound,
} from '../support/network-envelopes.ts';
import { postgresSkipReason } from '../support/postgres.ts';
import type { Receiver } from '../support/receiver.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

/** Makes every insert into `events` fail until the returned function is called. */
async function failEventWrites(store: Store): Promise<() => Promise<void>> {
  if (store.dialect === 'sqlite') {
    await sql`create trigger fail_events before insert on events begin select raise(abort, 'events unavailable'); end`.execute(
      store.db,
    );
    return async () => {
      await sql`drop trigger fail_events`.execute(store.db);
    };
  }
  await sql`create function fail_events() returns trigger language plpgsql as $$ begin raise exception 'events unavailable'; end $$`.execute(
    store.db,
  );
  await sql`create trigger fail_events before insert on events for each row execute function fail_events()`.execute(
    store.db,
  );
  return async () => {
    await sql`drop trigger fail_events on events`.execute(store.db);
    await sql`drop function fail_events()`.execute(store.db);
  };
}

for (const database of ['sqlite', 'postgres'] as const) {
  describe(`an interrupted inbound message is completed by the redelivery (${database})`, async () => {
    const skip = database === 'postgres' ? await postgresSkipReason() : false;
    const user = database === 'sqlite' ? '254712300611' : '254712300612';
    let t: TestGateway;
    let receiver: Receiver;
    let account: TestAccount;

    let fixture: ReceivingGateway;

    before(async () => {
      if (skip) return;
      fixture = await startReceivingGateway('Redelivery Co', [user], { database });
      ({ t, receiver, account } = fixture);
    });
    after(async () => {
      if (skip) return;
      await fixture.close();
    });

    /** Posts a message while its event cannot be written: stored, answered 500, nothing published. */
    async function interrupted(waId: string, text: string): Promise<unknown> {
      const body = inboundTextEnvelope(user, waId, text);
      const restore = await failEventWrites(t.gateway.store);
      try {
        const r = await postNetworkWebhook(t.url, body);
        assert.equal(r.status, 500);
      } finally {
        await restore();
      }
      const row = await storedInbound(t.gateway.store.db, waId);
      assert.ok(row, 'the message was stored before the failure');
      assert.equal(row.account_id, null);
      assert.deepEqual(await receivedEventsOf(t.gateway.store.db, waId), []);
      return body;
    }

    test('the event write fails once; the redelivery publishes it exactly once', { skip }, async () => {
      const waId = `wamid.INTERRUPTED.${database}`;
      const body = await interrupted(waId, 'are you open today?');
      assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
      assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
      const received = await eventually(() => receiver.received.find((r) => r.json.data?.messageId === waId));
      assert.equal(received.json.data.text, 'are you open today?');
      const events = await receivedEventsOf(t.gateway.store.db, waId);
      assert.equal(events.length, 1);
      const row = await storedInbound(t.gateway.store.db, waId);
      assert.equal(row?.account_id, account.accountId);
      assert.ok(row?.handled_at);
    });

    test('redeliveries arriving together publish it exactly once', { skip }, async () => {
      const waId = `wamid.CONCURRENT.${database}`;
      const body = await interrupted(waId, 'hello again');
      const answers = await Promise.all(Array.from({ length: 6 }, () => postNetworkWebhook(t.url, body)));
      assert.deepEqual(
        answers.map((a) => a.status),
        [200, 200, 200, 200, 200, 200],
      );
      await eventually(() => receiver.received.find((r) => r.json.data?.messageId === waId));
      assert.equal((await receivedEventsOf(t.gateway.store.db, waId)).length, 1);
    });
  });
}
