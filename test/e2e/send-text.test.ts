/**
 * The core journey over real HTTP: a user joins the sandbox from the simulator's virtual phone, the business
 * sends a text with its API key, the phone receives it, and statuses flow back to SENT → DELIVERED → READ.
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

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const USER = '254712345678';
const WIRE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

describe('send text through the sandbox', () => {
  let t: TestGateway;
  let account: TestAccount;

  before(async () => {
    t = await startGateway();
    account = await createAccount(t);
    await joinSandbox(t, account, USER);
  });
  after(() => t.close());

  test('the joined user got a confirmation from the sandbox', async () => {
    const messages = await eventually(async () => {
      const m = await receivedBy(t, USER);
      return m.length > 0 ? m : undefined;
    });
    assert.match(messages[0].rendered, /Test Co sandbox/);
  });

  test('a text send answers the documented envelope and reaches the phone', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'text-1', from: SANDBOX, to: `+${USER}`, message: 'Hello from Switchboard' },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
    assert.match(r.body.timestamp, WIRE_TIMESTAMP);
    assert.equal(r.body.status, 'success');
    assert.equal(r.body.message, '');
    assert.equal(r.body.errors, null);
    assert.deepEqual(Object.keys(r.body.data), ['messageId', 'waId', 'status', 'statusDesc']);
    assert.equal(r.body.data.messageId, 'text-1');
    assert.match(r.body.data.waId, /^wamid\./);
    assert.equal(r.body.data.status, 'SENT');
    assert.equal(r.body.data.statusDesc, 'Message sent successfully');

    const onPhone = await eventually(async () =>
      (await receivedBy(t, USER)).find((m) => m.id === r.body.data.waId),
    );
    assert.equal(onPhone.type, 'text');
    assert.equal(onPhone.rendered, 'Hello from Switchboard');

    // The network's statuses may arrive out of order: a `delivered` behind `read` joins the timeline a
    // moment after the status reads READ.
    const status = await eventually(async () => {
      const s = await call(t.url, 'GET', '/api/v1/msg/message/text-1', { key: account.apiKey });
      return s.body.data?.status === 'READ' && s.body.data.timeline.length === 3 ? s : undefined;
    });
    assert.equal(status.status, 200);
    assert.equal(status.body.data.waId, r.body.data.waId);
    assert.equal(status.body.data.to, USER);
    assert.deepEqual(
      status.body.data.timeline.map((e: { status: string }) => e.status),
      ['SENT', 'DELIVERED', 'READ'],
    );
  });

  test('a body of a type the API does not read is a 415 that names the type', async () => {
    for (const [type, route] of [
      ['application/xml', '/api/v1/msg/message/text'],
      ['text/plain', '/api/v1/msg/message/text'],
      ['text/plain; charset=utf-8', '/api/v1/contacts'],
    ] as const) {
      const r = await fetch(`${t.url}${route}`, {
        method: 'POST',
        headers: { apiKey: account.apiKey, 'content-type': type },
        body: '{"messageId":"typed"}',
      });
      assert.equal(r.status, 415, type);
      const body = (await r.json()) as { message: string };
      assert.equal(body.message, `Content-Type ${type} is not supported; send application/json`);
    }
  });

  test('the same messageId and body replays the first answer without sending again', async () => {
    const body = { messageId: 'text-dup', from: SANDBOX, to: USER, message: 'once' };
    const first = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
    const second = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      // The same message written differently (+ and dashes) is the same request.
      body: { ...body, to: '+254-712-345-678' },
    });
    assert.equal(second.status, 200);
    assert.equal(second.body.data.waId, first.body.data.waId);
    await new Promise((r) => setTimeout(r, 100));
    const copies = (await receivedBy(t, USER)).filter((m) => m.rendered === 'once');
    assert.equal(copies.length, 1);
  });

  test('a lone surrogate in a text is read as U+FFFD: answered, stored and sent alike', async () => {
    // JSON.stringify writes a lone surrogate as its escape, as a client's JSON library would.
    const body = {
      messageId: 'lone-surrogate-text',
      from: SANDBOX,
      to: USER,
      message: 'half \uDC00 a pair, 💥 a whole one',
    };
    const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const again = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
    assert.equal(again.body.data.waId, sent.body.data.waId, 'the same request replays its answer');
    const phone = await eventually(async () =>
      (await receivedBy(t, USER)).find((m) => m.rendered === 'half \uFFFD a pair, 💥 a whole one'),
    );
    assert.ok(phone, 'the network got the text with U+FFFD and the emoji whole');
  });

  test('a messageId holding a NUL or a lone surrogate is refused, never changed into another key', async () => {
    for (const messageId of ['lone-\uD800', 'nul-\u0000']) {
      const body = { messageId, from: SANDBOX, to: USER, message: 'never sent' };
      const r = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.message, /^`messageId` holds a NUL character or a lone surrogate/);
    }
    const stored = await call(t.url, 'GET', `/api/v1/msg/message/${encodeURIComponent('lone-\uFFFD')}`, {
      key: account.apiKey,
    });
    assert.equal(stored.status, 404, 'nothing was stored under a changed key');
  });

  test('the same messageId with another body is a 409', async () => {
    const body = { messageId: 'text-conflict', from: SANDBOX, to: USER, message: 'first' };
    assert.equal(
      (await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body })).status,
      200,
    );
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { ...body, message: 'second' },
    });
    assert.equal(r.status, 409);
    assert.equal(r.body.status, 'error');
    assert.equal(r.body.data, null);
    assert.match(r.body.message, /messageId "text-conflict" was already used/);
  });

  test('a user who has not joined cannot be messaged from the sandbox (403)', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'stranger', from: SANDBOX, to: '+447911123456', message: 'hi' },
    });
    assert.equal(r.status, 403);
    assert.match(r.body.message, /has not joined your sandbox/);
    assert.match(r.body.message, new RegExp(`join ${account.joinCode}`));
  });

  test('a user who writes to the sandbox without joining is told how to join; no account hears of it', async () => {
    const stranger = '447911123458';
    const said = await call(t.url, 'POST', `/simulator/users/${stranger}/messages`, {
      body: { to: SANDBOX, text: 'hello?' },
    });
    assert.equal(said.status, 202, JSON.stringify(said.body));
    const [reply] = await eventually(async () => {
      const m = await receivedBy(t, stranger);
      return m.length > 0 ? m : undefined;
    });
    assert.match(reply.rendered, /not connected to a sandbox yet\. Send "join <code>"/);
    const row = await t.gateway.store.db
      .selectFrom('inbound_messages')
      .select(['account_id', 'handled_at'])
      .where('wa_id', '=', said.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.account_id, null);
  });

  test('a user who left with "stop" is no longer reachable', async () => {
    const leaver = '447911123457';
    await joinSandbox(t, account, leaver);
    await call(t.url, 'POST', `/simulator/users/${leaver}/messages`, { body: { to: SANDBOX, text: 'stop' } });
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, leaver)) === undefined,
    );
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'after-stop', from: SANDBOX, to: leaver, message: 'hi' },
    });
    assert.equal(r.status, 403);
  });

  test('a closed 24-hour window is a 422 that asks for a template', async () => {
    const user = '447911123458';
    await joinSandbox(t, account, user);
    // Age the window: the user last wrote 25 hours ago.
    const { db } = t.gateway.store;
    await db
      .updateTable('conversation_windows')
      .set({ last_inbound_at: Date.now() - 25 * 3600 * 1000 })
      .where('user_phone', '=', user)
      .execute();
    const body = { messageId: 'late', from: SANDBOX, to: user, message: 'are you there?' };
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
    assert.equal(r.status, 422);
    assert.match(r.body.message, /template message/);
    // Nothing was sent, so once the user writes again the same messageId goes through.
    await call(t.url, 'POST', `/simulator/users/${user}/messages`, {
      body: { to: SANDBOX, text: 'hello again' },
    });
    const retried = await eventually(async () => {
      const x = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
      return x.status === 200 ? x : undefined;
    });
    assert.equal(retried.body.data.messageId, 'late');
  });

  test('GET of an unknown or foreign messageId is a 404', async () => {
    const other = await createAccount(t, 'Other Co');
    const foreign = await call(t.url, 'GET', '/api/v1/msg/message/text-1', { key: other.apiKey });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.status, 'error');
    const unknown = await call(t.url, 'GET', '/api/v1/msg/message/nope', { key: account.apiKey });
    assert.equal(unknown.status, 404);
  });
});
