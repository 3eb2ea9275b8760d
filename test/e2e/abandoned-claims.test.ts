/**
 * A node that stops mid-send leaves its deduplication claim PENDING. A retry with that messageId must not
 * hear "still in progress" forever, and must not send a second copy either: once the claim is older than
 * any send can last, it is an unknown outcome (docs/adr/0013). The network's status reports settle it if
 * the network did take the message; otherwise the sweep fails it, whether or not anyone asks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  eventually,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712377001';
const TEN_MINUTES_AGO = () => Date.now() - 10 * 60 * 1000;

function body(messageId: string) {
  return { messageId, from: `+${DEFAULT_SANDBOX_NUMBER}`, to: `+${USER}`, message: 'Your order shipped' };
}

function send(t: TestGateway, account: TestAccount, messageId: string) {
  return call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body: body(messageId) });
}

function lookup(t: TestGateway, account: TestAccount, messageId: string) {
  return call(t.url, 'GET', `/api/v1/msg/message/${messageId}`, { key: account.apiKey });
}

/** A gateway, an account whose sandbox user joined, and one message sent to them. */
async function setUp(env: Record<string, string> = {}): Promise<[TestGateway, TestAccount]> {
  const t = await startGateway({ env });
  const account = await createAccount(t, 'Interrupted Co');
  await joinSandbox(t, account, USER);
  const first = await send(t, account, 'shipped-1');
  assert.equal(first.status, 200, JSON.stringify(first.body));
  return [t, account];
}

/** What a killed node leaves behind: the claim of the same message under `messageId`, never finished. */
async function leftBehind(t: TestGateway, account: TestAccount, messageId: string, createdAt: number) {
  const done = await t.gateway.repos.messages.findByClientId(account.accountId, 'shipped-1');
  assert.ok(done);
  const id = `msg_interrupted_${messageId}`;
  const holder = await t.gateway.repos.messages.reserve({
    id,
    accountId: account.accountId,
    clientMessageId: messageId,
    requestHash: done.requestHash,
    kind: done.kind,
    fromPhone: done.fromPhone,
    toPhone: done.toPhone,
    content: done.content,
    createdAt: createdAt,
    updatedAt: createdAt,
  });
  assert.equal(holder, null, 'the claim is new');
  return id;
}

describe('claims left by a node that stopped mid-send', () => {
  let t: TestGateway;
  let account: TestAccount;
  before(async () => {
    [t, account] = await setUp();
  });
  after(() => t.close());

  test('a retry finds an old claim an unknown outcome, replays that, and never sends it', async () => {
    const sentBefore = (await receivedBy(t, USER)).length;
    await leftBehind(t, account, 'shipped-2', TEN_MINUTES_AGO());

    const retry = await send(t, account, 'shipped-2');
    assert.equal(retry.status, 502, JSON.stringify(retry.body));
    assert.match(retry.body.message, /\(send interrupted: the gateway stopped while sending it\)/);
    assert.match(retry.body.message, /its outcome is not yet known/);
    const again = await send(t, account, 'shipped-2');
    assert.equal(again.status, 502);
    assert.equal(again.body.message, retry.body.message, 'the same answer is replayed');
    const open = await lookup(t, account, 'shipped-2');
    assert.equal(open.body.data.status, 'PENDING', JSON.stringify(open.body));
    assert.match(open.body.data.statusDesc, /^Outcome not yet known/);
    assert.equal(open.body.data.error.title, 'send interrupted');
    assert.equal((await receivedBy(t, USER)).length, sentBefore, 'nothing more reached the phone');
  });

  test('a claim whose node stopped after the network took the message is settled by its statuses', async () => {
    // The node sent the message with its id as the tag, then died before it stored the answer.
    const id = await leftBehind(t, account, 'shipped-3', Date.now());
    const sent = await call(t.url, 'POST', `/simulator/v23.0/${DEFAULT_SANDBOX_NUMBER}/messages`, {
      headers: { authorization: `Bearer ${t.gateway.config.simulator.accessToken}` },
      body: {
        messaging_product: 'whatsapp',
        to: USER,
        type: 'text',
        text: { body: 'Your order shipped' },
        biz_opaque_callback_data: id,
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const waId = sent.body.messages[0].id;
    const settled = await eventually(async () => {
      const r = await lookup(t, account, 'shipped-3');
      return r.body.data.status === 'READ' ? r.body.data : undefined;
    });
    assert.equal(settled.waId, waId);
    const replay = await send(t, account, 'shipped-3');
    assert.equal(replay.status, 200, JSON.stringify(replay.body));
    assert.equal(replay.body.data.waId, waId);
  });
});

describe('claims left behind that no status report settles', () => {
  let t: TestGateway;
  let account: TestAccount;
  before(async () => {
    // Unknown outcomes wait one second for a status report here, not the default minutes.
    [t, account] = await setUp({ NETWORK_UNKNOWN_OUTCOME_MS: '1000' });
  });
  after(() => t.close());

  test('the sweep finds a claim nobody retries and FAILs it; a retry then replays that failure', async () => {
    const sentBefore = (await receivedBy(t, USER)).length;
    await leftBehind(t, account, 'shipped-4', TEN_MINUTES_AGO());
    const failed = await eventually(async () => {
      const r = await lookup(t, account, 'shipped-4');
      return r.body.data.status === 'FAILED' ? r.body.data : undefined;
    });
    assert.equal(failed.error.title, 'send interrupted');
    assert.match(failed.error.details, /no status report within 1 s$/);
    assert.deepEqual(
      failed.timeline.map((e: { status: string }) => e.status),
      ['FAILED'],
    );
    const retry = await send(t, account, 'shipped-4');
    assert.equal(retry.status, 502, JSON.stringify(retry.body));
    assert.match(retry.body.message, /no status report for it arrived within 1 s, so it is marked FAILED/);
    assert.equal((await receivedBy(t, USER)).length, sentBefore, 'nothing more reached the phone');
  });
});
