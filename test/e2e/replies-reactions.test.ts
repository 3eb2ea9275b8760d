/**
 * Replies, reactions, the call-to-action URL button and read receipts, end to end: the API, the simulated
 * network, the virtual phone (what it received and its live stream), the status lookup; and the edges, each
 * a 400 naming its field, or a 404 for a message that is not the account's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  eventually,
  receivedBy,
  type TestAccount,
  userSays,
} from '../support/gateway.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USER = '254712399001';
const SANDBOX = DEFAULT_SANDBOX_NUMBER;

describe('replies, reactions, call-to-action buttons and read receipts', () => {
  let g: ReceivingGateway;
  let other: TestAccount;
  /** The network id of a message the user sent (`message.received` names it so). */
  let userMessage: string;

  const send = (path: string, body: Record<string, unknown>, key = g.account.apiKey) =>
    call(g.t.url, 'POST', path, { key, body: { from: SANDBOX, to: USER, ...body } });
  const phone = () => receivedBy(g.t, USER);

  before(async () => {
    g = await startReceivingGateway('Replies Co', [USER]);
    other = await createAccount(g.t, 'Other Co');
    userMessage = (await userSays(g.t, USER, SANDBOX, { text: 'Is my order on its way?' })).id;
    await eventually(() => g.receiver.received.some((r) => r.json.data?.messageId === userMessage));
  });
  after(() => g?.close());

  test('a reply quotes the message it answers, named by its network id or by a messageId sent before', async () => {
    const reply = await send('/api/v1/msg/message/text', {
      messageId: 'reply-1',
      message: 'Yes, it left this morning.',
      replyTo: userMessage,
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const followUp = await send('/api/v1/msg/message/text', {
      messageId: 'reply-2',
      message: 'Tracking: 1Z999',
      replyTo: 'reply-1',
    });
    assert.equal(followUp.status, 200, JSON.stringify(followUp.body));
    const got = await phone();
    const first = got.find((m) => m.id === reply.body.data.waId);
    const second = got.find((m) => m.id === followUp.body.data.waId);
    assert.deepEqual(first.content.context, { message_id: userMessage });
    assert.deepEqual(second.content.context, { message_id: reply.body.data.waId });
    // The same messageId with another replyTo is another message: a conflict, not a replay.
    const changed = await send('/api/v1/msg/message/text', {
      messageId: 'reply-1',
      message: 'Yes, it left this morning.',
    });
    assert.equal(changed.status, 409);
  });

  test('a reaction is put on a message and taken off again', async () => {
    const put = await send('/api/v1/msg/reaction', {
      messageId: 'react-1',
      replyTo: userMessage,
      emoji: '👍🏽',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const removed = await send('/api/v1/msg/reaction', {
      messageId: 'react-2',
      replyTo: userMessage,
      emoji: '',
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const got = await phone();
    assert.deepEqual(got.find((m) => m.id === put.body.data.waId).content.reaction, {
      message_id: userMessage,
      emoji: '👍🏽',
    });
    assert.equal(got.find((m) => m.id === removed.body.data.waId).rendered, '(reaction removed)');
    const status = await eventually(async () => {
      const r = await call(g.t.url, 'GET', '/api/v1/msg/message/react-1', { key: g.account.apiKey });
      return r.body.data.status === 'READ' && r.body.data;
    });
    assert.equal(status.type, 'reaction');
  });

  test('a call-to-action URL button shows its label and carries its link', async () => {
    const sent = await send('/api/v1/msg/interactive/cta_url', {
      messageId: 'cta-1',
      header: 'Your order',
      body: 'Follow your parcel live.',
      buttonText: 'Track it',
      url: 'https://example.com/track/1Z999',
      footer: 'Acme Deliveries',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const message = (await phone()).find((m) => m.id === sent.body.data.waId);
    assert.equal(message.interactive_type, 'cta_url');
    assert.deepEqual(message.content.interactive.action, {
      name: 'cta_url',
      parameters: { display_text: 'Track it', url: 'https://example.com/track/1Z999' },
    });
  });

  test('a read receipt turns the user’s message read on the phone, and the typing indicator shows live', async () => {
    const stream = await fetch(`${g.t.url}/simulator/users/${USER}/events`);
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const marked = await call(g.t.url, 'POST', '/api/v1/msg/read', {
      key: g.account.apiKey,
      body: { from: SANDBOX, messageId: userMessage, typing: true },
    });
    assert.equal(marked.status, 200, JSON.stringify(marked.body));
    assert.deepEqual(marked.body.data, { messageId: userMessage, status: 'READ', typing: true });
    let seen = '';
    while (!seen.includes('event: typing')) seen += (await reader.read()).value ?? '';
    await reader.cancel();
    assert.match(seen, new RegExp(`event: typing\\ndata: \\{"business":"${SANDBOX}","seconds":25\\}`));
    const chat = await call(g.t.url, 'GET', `/simulator/users/${USER}/chat?with=${SANDBOX}`);
    const mine = chat.body.messages.find((m: { id: string }) => m.id === userMessage);
    assert.equal(mine.status, 'read');
  });

  test('edges: each refusal names its field; another account’s message is not found', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['/api/v1/msg/reaction', { messageId: 'e-1', emoji: '👍' }, 'replyTo', /`replyTo` is required/],
      [
        '/api/v1/msg/reaction',
        { messageId: 'e-2', replyTo: userMessage, emoji: 'ok' },
        'emoji',
        /single emoji/,
      ],
      [
        '/api/v1/msg/reaction',
        { messageId: 'e-3', replyTo: userMessage, emoji: '👍👍' },
        'emoji',
        /single emoji/,
      ],
      [
        '/api/v1/msg/message/text',
        { messageId: 'e-4', message: 'x', replyTo: 'never-sent' },
        'replyTo',
        /must be the `messageId`/,
      ],
      [
        '/api/v1/msg/interactive/cta_url',
        { messageId: 'e-5', body: 'x', buttonText: 'Go', url: 'http://example.com' },
        'url',
        /https:\/\//,
      ],
      [
        '/api/v1/msg/interactive/cta_url',
        {
          messageId: 'e-6',
          body: 'x',
          buttonText: 'A label far too long to fit',
          url: 'https://example.com',
        },
        'buttonText',
        /20/,
      ],
    ];
    for (const [path, body, field, message] of cases) {
      const r = await send(path, body);
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
      assert.match(JSON.stringify(r.body), new RegExp(field));
      assert.match(r.body.message, message);
    }
    const foreign = await call(g.t.url, 'POST', '/api/v1/msg/read', {
      key: other.apiKey,
      body: { from: SANDBOX, messageId: userMessage },
    });
    assert.equal(foreign.status, 404);
    const wrongNumber = await call(g.t.url, 'POST', '/api/v1/msg/read', {
      key: g.account.apiKey,
      body: { from: '+14155550199', messageId: userMessage },
    });
    assert.equal(wrongNumber.status, 400);
    assert.match(wrongNumber.body.message, /was sent to \+14155550100/);
  });
});
