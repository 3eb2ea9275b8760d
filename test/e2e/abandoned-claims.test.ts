/**
 * A node that stops mid-send leaves its deduplication claim PENDING. A retry with that messageId must not
 * hear "still in progress" forever, and must not send a second copy either: once the claim is older than
 * any send can last, it is settled as an unknown outcome (docs/adr/0002) and that answer is replayed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712377001';

describe('claims left by a node that stopped mid-send', () => {
  let t: TestGateway;
  let account: TestAccount;
  const body = (messageId: string) => ({
    messageId,
    from: `+${DEFAULT_SANDBOX_NUMBER}`,
    to: `+${USER}`,
    message: 'Your order shipped',
  });

  before(async () => {
    t = await startGateway();
    account = await createAccount(t, 'Interrupted Co');
    await joinSandbox(t, account, USER);
  });
  after(() => t.close());

  test('an old PENDING claim is settled as an unknown outcome, replayed, and never sent', async () => {
    const first = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: body('shipped-1'),
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const sentBefore = (await receivedBy(t, USER)).length;

    // What a killed node leaves behind: the claim of the same message under another messageId, made
    // ten minutes ago, never finished.
    const done = await t.gateway.repos.messages.findByClientId(account.accountId, 'shipped-1');
    assert.ok(done);
    const tenMinutesAgo = Date.now() - 10 * 60 * 1000;
    const holder = await t.gateway.repos.messages.reserve({
      id: 'msg_interrupted_1',
      account_id: account.accountId,
      client_message_id: 'shipped-2',
      request_hash: done.request_hash,
      kind: done.kind,
      from_phone: done.from_phone,
      to_phone: done.to_phone,
      content: done.content,
      created_at: tenMinutesAgo,
      updated_at: tenMinutesAgo,
    });
    assert.equal(holder, null, 'the claim is new');

    const retry = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: body('shipped-2'),
    });
    assert.equal(retry.status, 502, JSON.stringify(retry.body));
    assert.match(retry.body.message, /send interrupted/);
    assert.match(retry.body.message, /may or may not have been sent/);

    const again = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: body('shipped-2'),
    });
    assert.equal(again.status, 502);
    assert.equal(again.body.message, retry.body.message, 'the same answer is replayed');

    const status = await call(t.url, 'GET', '/api/v1/msg/message/shipped-2', { key: account.apiKey });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.data.status, 'FAILED');
    assert.equal((await receivedBy(t, USER)).length, sentBefore, 'nothing more reached the phone');
  });
});
