/**
 * Users named by a business-scoped user id (docs/cloud-api.md §10), end to end through the simulated
 * network: a user with a username who withholds their number joins the sandbox and is received, stored and
 * published with `userId` and `username` (no `from`); the sandbox's answer and the business's sends reach
 * them by that id; once a message brings their number with the id, both name the same user (sandbox,
 * window, sends), and a later message without the number still reads as from it. A body whose message
 * names no sender at all is answered 200 and said in the log, not refused whole. A user who changes
 * their number keeps their sandbox under the new one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { call, eventually } from '../support/gateway.ts';
import { envelope, messagesChange, postNetworkWebhook, textMessage } from '../support/network-envelopes.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USER = '254712399101';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;

describe('users named by a business-scoped user id', () => {
  let g: ReceivingGateway;
  const logged: string[] = [];

  before(async () => {
    g = await startReceivingGateway('Username Co', [], {
      env: { LOG_LEVEL: 'info' },
      logStream: { write: (line) => logged.push(line) },
    });
  });
  after(() => g?.close());

  const says = (body: Record<string, unknown>) =>
    call(g.t.url, 'POST', `/simulator/users/${USER}/messages`, { body: { to: SANDBOX, ...body } });
  const received = (text: string) =>
    eventually(() => g.receiver.received.map((r) => r.json.data).find((d) => d.text === text));
  const phone = async () =>
    (
      (await call(g.t.url, 'GET', `/simulator/users/${USER}/messages`)).body as {
        messages: { rendered: string }[];
      }
    ).messages;
  const send = (to: string, message: string, messageId: string) =>
    call(g.t.url, 'POST', '/api/v1/msg/message/text', {
      key: g.account.apiKey,
      body: { messageId, from: SANDBOX, to, message },
    });

  test('a user who withholds their number joins, is published by id, and is reached by id', async () => {
    const hidden = { username: 'amina.k', hideNumber: true, profileName: 'Amina' };
    assert.equal((await says({ ...hidden, text: `join ${g.account.joinCode}` })).status, 202);
    // The sandbox answered by id: the network had no number to send to.
    await eventually(async () => (await phone()).some((m) => m.rendered.startsWith('You are connected')));
    assert.equal((await says({ ...hidden, text: 'Hello without a number' })).status, 202);
    const event = await received('Hello without a number');
    assert.equal(event.from, null);
    assert.match(event.userId, /^KE\.\d{20}$/);
    assert.equal(event.username, 'amina.k');
    assert.equal(event.profileName, 'Amina');

    const sent = await send(event.userId, 'Reached by id', 'by-id-1');
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await eventually(async () => (await phone()).some((m) => m.rendered === 'Reached by id'));
  });

  test('a message with the number links it: the number and the id name one user from then on', async () => {
    const idOnly = await received('Hello without a number');
    assert.equal((await says({ username: 'amina.k', text: 'Now with my number' })).status, 202);
    const linked = await received('Now with my number');
    assert.equal(linked.from, USER);
    assert.equal(linked.userId, idOnly.userId);

    // The sandbox membership and the window moved to the number: a send by number works.
    assert.equal((await send(`+${USER}`, 'By number', 'by-number-1')).status, 200);
    assert.equal((await send(idOnly.userId, 'By id, linked', 'by-id-2')).status, 200);
    // Withheld again, the number is still known: the event says who it is.
    assert.equal((await says({ username: 'amina.k', hideNumber: true, text: 'Hidden again' })).status, 202);
    assert.equal((await received('Hidden again')).from, USER);
  });

  test('a message naming no sender is answered 200 and logged, and the rest of the body is handled', async () => {
    const body = envelope([
      [
        messagesChange([
          {
            id: 'wamid.NOSENDER',
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'text',
            text: { body: 'x' },
          },
          textMessage(USER, 'wamid.BESIDE', 'Beside the unreadable one'),
        ]),
      ],
    ]);
    const answer = await postNetworkWebhook(g.t.url, body);
    assert.equal(answer.status, 200, answer.text);
    await received('Beside the unreadable one');
    assert.ok(
      logged.some(
        (l) =>
          l.includes('network webhook item not handled') && l.includes('neither `from` nor `from_user_id`'),
      ),
      'the decision is in the log',
    );
  });

  test('a user who changed their number keeps their sandbox under the new one', async () => {
    const before = '254712399201';
    const after = '254712399202';
    const join = await call(g.t.url, 'POST', `/simulator/users/${before}/messages`, {
      body: { to: SANDBOX, text: `join ${g.account.joinCode}` },
    });
    assert.equal(join.status, 202);
    await eventually(async () => (await send(`+${before}`, 'before the change', 'change-1')).status === 200);
    const changed = envelope([
      [
        messagesChange([
          {
            from: before,
            id: 'wamid.CHANGED1',
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'system',
            system: {
              body: `User changed from ${before} to ${after}`,
              wa_id: after,
              type: 'user_changed_number',
            },
          },
        ]),
      ],
    ]);
    assert.equal((await postNetworkWebhook(g.t.url, changed)).status, 200);
    const event = await eventually(() =>
      g.receiver.received.map((r) => r.json.data).find((d) => d.messageId === 'wamid.CHANGED1'),
    );
    assert.equal(event.type, 'SYSTEM');
    assert.equal(event.from, before, 'the change reaches the account of the old number');
    assert.equal((await send(`+${after}`, 'after the change', 'change-2')).status, 200);
    assert.equal((await send(`+${before}`, 'to the old number', 'change-3')).status, 403);
  });
});
