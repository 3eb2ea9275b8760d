/**
 * The corpus of Cloud API webhook bodies (test/corpus/network-webhooks.json: every message type, statuses
 * with pricing and errors, template and account changes, batches, users named by id), each replayed signed
 * at `/webhooks/network` of a real gateway. Each must be answered 200 and produce what its entry expects: a
 * `message.received` of the right type (with the user id when it named one), a `message.status`, or a
 * line in the log saying what was not handled and why. Nothing is dropped without a word. (A user's
 * marketing preference on one of an account's own numbers is an opt-out: test/e2e/opt-outs.test.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  call,
  createAccount,
  eventually,
  joinSandbox,
  startGateway,
  type TestGateway,
} from '../support/gateway.ts';
import { postNetworkWebhook } from '../support/network-envelopes.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

interface Expectation {
  event?: 'message.received' | 'message.status';
  type?: string;
  status?: string;
  userId?: boolean;
  logged?: string;
  none?: string;
}
interface Entry {
  name: string;
  source: string;
  expect: Expectation[];
  body: unknown;
}

const CORPUS = JSON.parse(
  readFileSync(new URL('../corpus/network-webhooks.json', import.meta.url), 'utf8'),
) as {
  entries: Entry[];
};
const USER = '254712366001';
const OTHER = '254712366002';
const USER_ID = 'NG.10000000000000000001';

describe('the corpus of network webhook bodies, replayed signed', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let key: string;
  const logged: string[] = [];
  let sends = 0;

  before(async () => {
    t = await startGateway({
      // Only the corpus's statuses reach the gateway.
      env: { SIMULATOR_STATUS_WEBHOOKS: 'false', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' },
      logStream: { write: (line) => logged.push(line) },
    });
    receiver = await startReceiver();
    const account = await createAccount(t, 'Corpus Co');
    key = account.apiKey;
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key,
      body: { url: receiver.url, events: ['message.received', 'message.status'] },
    });
    assert.equal(hook.status, 201);
    for (const user of [USER, OTHER]) await joinSandbox(t, account, user);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** The entry's body with its placeholders filled; `sent` is the network id of a message sent first. */
  async function bodyOf(entry: Entry): Promise<{ raw: string; messageId: string | undefined }> {
    let raw = JSON.stringify(entry.body);
    let messageId: string | undefined;
    if (raw.includes('__SENT__')) {
      messageId = `corpus-${++sends}`;
      const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
        key,
        body: { messageId, from: `+${DEFAULT_SANDBOX_NUMBER}`, to: `+${USER}`, message: 'for a status' },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      raw = raw.replaceAll('__SENT__', sent.body.data.waId);
    }
    const filled = raw
      .replaceAll('__BUSINESS__', DEFAULT_SANDBOX_NUMBER)
      .replaceAll('__USER_ID__', USER_ID)
      .replaceAll('__OTHER__', OTHER)
      .replaceAll('__USER__', USER)
      .replaceAll('__NOW__', String(Math.floor(Date.now() / 1000)));
    return { raw: filled, messageId };
  }

  const eventsOf = (type: string) =>
    receiver.received.filter((r) => r.json.type === type).map((r) => r.json.data);

  for (const entry of CORPUS.entries) {
    test(`${entry.name} (${entry.source})`, async () => {
      const { raw, messageId } = await bodyOf(entry);
      const ids = [...raw.matchAll(/"id":"(wamid\.CORPUS\d+)"/g)].map((m) => m[1] ?? '');
      const answer = await postNetworkWebhook(t.url, raw);
      assert.equal(answer.status, 200, answer.text);
      const received = entry.expect.filter((e) => e.event === 'message.received');
      if (received.length > 0) {
        const events = await eventually(() => {
          const found = eventsOf('message.received').filter((d) => ids.includes(d.messageId));
          return found.length >= received.length ? found : undefined;
        });
        assert.deepEqual(
          events.map((d) => d.type),
          received.map((e) => e.type),
        );
        for (const [i, e] of received.entries()) if (e.userId) assert.equal(events[i]?.userId, USER_ID);
      }
      for (const e of entry.expect.filter((x) => x.event === 'message.status')) {
        await eventually(() =>
          eventsOf('message.status').find((d) => d.messageId === messageId && d.status === e.status),
        );
      }
      for (const e of entry.expect.filter((x) => x.logged)) {
        // The route's line for an item it does not handle, or a handler's for one it passes over.
        await eventually(() =>
          logged.some((l) => l.includes(e.logged!) && /item not handled|; ignored/.test(l)),
        );
      }
      if (entry.expect.every((e) => e.none)) {
        // Events are written with the change they report, before the 200: the outbox says it all.
        const written = await t.gateway.store.db.selectFrom('events').select(['type', 'payload']).execute();
        // The send's own SENT event is not about the network's report: a reported one carries `network`.
        const about = written.filter((w) => {
          const data = (JSON.parse(w.payload) as { data: { messageId?: string; network?: unknown } }).data;
          const reported = data.network !== undefined && w.type === 'message.status';
          return (
            ids.includes(data.messageId ?? '') ||
            (messageId !== undefined && data.messageId === messageId && reported)
          );
        });
        assert.deepEqual(about, [], entry.expect[0]?.none ?? entry.name);
      }
    });
  }
});
