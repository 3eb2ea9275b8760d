/**
 * The network batches: one POST may carry many entries, each with several changes of many messages and
 * statuses, up to a few MB. The network webhook takes bodies up to NETWORK_WEBHOOK_BODY_LIMIT_BYTES
 * (3 MiB by default) and handles all of a batch before answering; the API keeps its own 256 KiB limit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { call, startGateway, type TestAccount, type TestGateway } from '../support/gateway.ts';
import {
  envelope,
  messagesChange,
  postNetworkWebhook,
  textMessage,
  unixSeconds,
} from '../support/network-envelopes.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USERS = Array.from({ length: 10 }, (_, i) => `2547123009${String(i).padStart(2, '0')}`);
const ENTRIES = 100;
const CHANGES = 4;
const MESSAGES = 5;
const MiB = 1024 * 1024;

/** ENTRIES × CHANGES × MESSAGES texts of about 1 KB from the joined users, and a status per change. */
function bigBatch(tag: string) {
  const ids: string[] = [];
  const changes = Array.from({ length: ENTRIES }, (_, e) =>
    Array.from({ length: CHANGES }, (_, c) => {
      const messages = Array.from({ length: MESSAGES }, (_, m) => {
        const id = `wamid.${tag}.${e}.${c}.${m}`;
        ids.push(id);
        const user = USERS[(e + c + m) % USERS.length]!;
        return textMessage(user, id, `${id} ${'x'.repeat(900)}`);
      });
      const contacts = USERS.map((u) => ({ profile: { name: `User ${u.slice(-2)}` }, wa_id: u }));
      // A status of a message this gateway never sent: Meta mixes them in; it is kept as unmatched.
      const statuses = [{ id: `wamid.OUT.${tag}.${e}.${c}`, status: 'delivered', timestamp: unixSeconds() }];
      return messagesChange(messages, contacts, { statuses });
    }),
  );
  return { body: envelope(changes), ids };
}

describe('network webhook batches', () => {
  let t: TestGateway;
  let account: TestAccount;

  let fixture: ReceivingGateway;

  before(async () => {
    fixture = await startReceivingGateway('Batch Co', USERS);
    ({ t, account } = fixture);
  });
  after(() => fixture.close());

  test('a batch of about 2 MB is accepted and every message in it is stored and published', async () => {
    const { body, ids } = bigBatch('BIG');
    const raw = JSON.stringify(body);
    const size = Buffer.byteLength(raw);
    assert.ok(size > 2 * MiB && size < 3 * MiB, `${size} bytes`);
    const r = await postNetworkWebhook(t.url, raw);
    assert.equal(r.status, 200, r.text);
    const db = t.gateway.store.db;
    const rows = await db
      .selectFrom('inbound_messages')
      .select(['wa_id', 'account_id', 'handled_at'])
      .where('wa_id', 'like', 'wamid.BIG.%')
      .execute();
    assert.equal(rows.length, ids.length);
    for (const row of rows) {
      assert.equal(row.account_id, account.accountId, row.wa_id);
      assert.ok(row.handled_at, `${row.wa_id} handled`);
    }
    const events = await db
      .selectFrom('events')
      .select('payload')
      .where('account_id', '=', account.accountId)
      .where('type', '=', 'message.received')
      .execute();
    const published = new Set(events.map((e) => JSON.parse(e.payload).data.messageId as string));
    for (const id of ids) assert.ok(published.has(id), `${id} published`);
    const unmatched = await db
      .selectFrom('unmatched_statuses')
      .select('wa_id')
      .where('wa_id', 'like', 'wamid.OUT.BIG.%')
      .execute();
    assert.equal(unmatched.length, ENTRIES * CHANGES);
  });

  test('a body over the network limit is a 413 and nothing of it is stored', async () => {
    const small = await startGateway({ env: { NETWORK_WEBHOOK_BODY_LIMIT_BYTES: String(MiB) } });
    try {
      const { body } = bigBatch('OVER');
      const r = await postNetworkWebhook(small.url, body);
      assert.equal(r.status, 413);
      assert.match(r.text, /larger than the 1048576 bytes allowed/);
      const rows = await small.gateway.store.db.selectFrom('inbound_messages').select('wa_id').execute();
      assert.deepEqual(rows, []);
    } finally {
      await small.close();
    }
    // The default limit is 3 MiB: a body just over it is refused too.
    const padded = { ...envelope([]), padding: 'x'.repeat(3 * MiB) };
    const r = await postNetworkWebhook(t.url, padded);
    assert.equal(r.status, 413);
    assert.match(r.text, /larger than the 3145728 bytes allowed/);
  });

  test('the API keeps its 256 KiB limit', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'big', from: DEFAULT_SANDBOX_NUMBER, to: USERS[0], message: 'x'.repeat(300 * 1024) },
    });
    assert.equal(r.status, 413);
    assert.match(r.body.message, /larger than the 262144 bytes allowed/);
  });
});
