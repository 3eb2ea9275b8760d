/**
 * Sends whose outcome is unknown (docs/adr/0013): the network's answer was lost, but every send carries the
 * gateway's id in `biz_opaque_callback_data`, and the network's status webhooks echo it. A real gateway sends
 * through its simulator, whose fault controls hold or delay the answer past the gateway's network timeout;
 * the virtual phone is the record of what the network really received.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { messagesEnvelope, statusItem } from '../../src/simulator/webhook-envelopes.ts';
import { serializeWebhook, signBody } from '../../src/simulator/webhook-poster.ts';
import { clearFaults, setFaults } from '../support/faults.ts';
import {
  type ApiResponse,
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;

function sendText(t: TestGateway, account: TestAccount, from: string, user: string, messageId: string) {
  return call(t.url, 'POST', '/api/v1/msg/message/text', {
    key: account.apiKey,
    body: { messageId, from, to: `+${user}`, message: `text of ${messageId}` },
  });
}

function lookup(t: TestGateway, account: TestAccount, messageId: string): Promise<ApiResponse> {
  return call(t.url, 'GET', `/api/v1/msg/message/${messageId}`, { key: account.apiKey });
}

/** The message's record once it has reached `status` (within eventually's bound: a loaded run is slow). */
async function once(t: TestGateway, account: TestAccount, messageId: string, status: string) {
  return eventually(async () => {
    const r = await lookup(t, account, messageId);
    return r.body.data?.status === status ? r.body.data : undefined;
  });
}

/** The `message.status` events the account's endpoint received for one message, by status. */
function statusEvents(receiver: Receiver, messageId: string): Map<string, any> {
  const events = receiver.received
    .map((r) => r.json)
    .filter((e) => e?.type === 'message.status' && e.data.messageId === messageId);
  return new Map(events.map((e) => [e.data.status, e.data]));
}

async function subscribe(t: TestGateway, account: TestAccount, receiver: Receiver): Promise<void> {
  const r = await call(t.url, 'POST', '/api/v1/webhooks', {
    key: account.apiKey,
    body: { url: receiver.url },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

async function addNumber(t: TestGateway, account: TestAccount, phone: string, sessionCheck: 0 | 1) {
  await addSimulatedNumber(t, account.accountId, phone, { sessionCheck: sessionCheck === 1 });
}

function assertUnknown(r: ApiResponse, status: number, title: string): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.status, 'error');
  assert.equal(r.body.data, null);
  assert.match(r.body.message, new RegExp(`^The network did not confirm the message \\(${title}: `));
  assert.match(r.body.message, /its outcome is not yet known/);
  assert.match(
    r.body.message,
    /status reports will settle it, or it is marked FAILED if none arrives within/,
  );
}

describe('unknown outcomes settled by the network', () => {
  let t: TestGateway;
  let account: TestAccount;
  let receiver: Receiver;

  before(async () => {
    t = await startGateway({
      env: {
        NETWORK_TIMEOUT_MS: '300',
        RATE_LIMIT_PER_SECOND: '0',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
      },
    });
    account = await createAccount(t, 'Patient Co');
    receiver = await startReceiver();
    await subscribe(t, account, receiver);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('an answer held past the timeout: 504 "not yet known", then the statuses settle it to READ', async () => {
    const user = '254712300401';
    await joinSandbox(t, account, user);
    await setFaults(t, { timeout: true });
    let first: ApiResponse;
    let pending: ApiResponse;
    let replayed: ApiResponse;
    try {
      first = await sendText(t, account, SANDBOX, user, 'held-1');
      pending = await lookup(t, account, 'held-1');
      replayed = await sendText(t, account, SANDBOX, user, 'held-1');
    } finally {
      // The held request is handled now: the network takes it, as a real timeout often hides.
      await clearFaults(t);
    }
    assertUnknown(first, 504, 'network timeout');
    assert.match(first.body.message, /no answer within 300 ms/);
    assert.equal(pending.status, 200);
    assert.equal(pending.body.data.status, 'PENDING');
    assert.match(pending.body.data.statusDesc, /^Outcome not yet known/);
    assert.equal(pending.body.data.waId, null);
    // The recorded failure, exactly as the status API has always shown it (docs/sending.md).
    assert.deepEqual(pending.body.data.error, {
      kind: 'unknown_outcome',
      code: 0,
      httpStatus: 0,
      title: 'network timeout',
      details: 'no answer within 300 ms',
    });
    assert.deepEqual(pending.body.data.timeline, []);
    assert.equal(replayed.status, 504, 'a replay while unknown says so again');
    assert.equal(replayed.body.message, first.body.message);

    // A `delivered` the network posted behind `read` joins the timeline a moment after the status reads READ.
    const settled = await eventually(async () => {
      const data = await once(t, account, 'held-1', 'READ');
      return data.timeline.length === 3 ? data : undefined;
    });
    const phone = (await receivedBy(t, user)).filter((m) => m.rendered === 'text of held-1');
    assert.equal(phone.length, 1, 'the network received it once');
    assert.equal(settled.waId, phone[0].id, 'the network id is recorded');
    assert.deepEqual(
      settled.timeline.map((e: { status: string }) => e.status),
      ['SENT', 'DELIVERED', 'READ'],
    );
    assert.equal(settled.error, undefined);
    const events = await eventually(() => {
      const seen = statusEvents(receiver, 'held-1');
      return seen.size === 3 ? seen : undefined;
    });
    assert.deepEqual([...events.keys()].sort(), ['DELIVERED', 'READ', 'SENT']);
    for (const e of events.values()) assert.equal(e.waId, settled.waId);

    // After settlement a replay answers as any sent message's replay does, and sends nothing.
    const after = await sendText(t, account, SANDBOX, user, 'held-1');
    assert.equal(after.status, 200, JSON.stringify(after.body));
    assert.deepEqual(after.body.data, {
      messageId: 'held-1',
      waId: settled.waId,
      status: 'SENT',
      statusDesc: 'Message sent successfully',
    });
    assert.equal((await receivedBy(t, user)).filter((m) => m.rendered === 'text of held-1').length, 1);
  });

  test('latency past the timeout: 504, then DELIVERED and READ with the wamid once the statuses arrive', async () => {
    const user = '254712300402';
    await joinSandbox(t, account, user);
    await setFaults(t, { latencyMs: 1500 });
    let first: ApiResponse;
    try {
      first = await sendText(t, account, SANDBOX, user, 'slow-1');
    } finally {
      await clearFaults(t);
    }
    assertUnknown(first, 504, 'network timeout');
    const delivered = await once(t, account, 'slow-1', 'READ');
    const phone = (await receivedBy(t, user)).find((m) => m.rendered === 'text of slow-1');
    assert.equal(delivered.waId, phone.id);
    assert.ok(delivered.timeline.some((e: { status: string }) => e.status === 'DELIVERED'));
    const replay = await sendText(t, account, SANDBOX, user, 'slow-1');
    assert.equal(replay.status, 200, JSON.stringify(replay.body));
    assert.equal(replay.body.data.waId, phone.id);
  });

  test('a network "failed" settles it FAILED with the network reason; the replay is the accepted answer', async () => {
    // A number without the gateway's window check, to a user who never wrote: the network takes the send,
    // then reports it failed (131047), as production mostly does.
    const number = '14155550161';
    const user = '254712300403';
    await addNumber(t, account, number, 0);
    await setFaults(t, { timeout: true });
    let first: ApiResponse;
    try {
      first = await sendText(t, account, `+${number}`, user, 'closed-1');
    } finally {
      await clearFaults(t);
    }
    assertUnknown(first, 504, 'network timeout');
    const failed = await once(t, account, 'closed-1', 'FAILED');
    assert.equal(failed.error.code, 131047);
    const phone = (await receivedBy(t, user)).find((m) => m.rendered === 'text of closed-1');
    assert.equal(failed.waId, phone.id);
    assert.deepEqual(
      failed.timeline.map((e: { status: string }) => e.status),
      ['SENT', 'FAILED'],
    );
    const replay = await sendText(t, account, `+${number}`, user, 'closed-1');
    assert.equal(replay.status, 200, JSON.stringify(replay.body));
    assert.equal(replay.body.data.waId, phone.id);
  });

  test('a message the network took and then reported failed replays its 200, never a 500', async () => {
    const number = '14155550162';
    const user = '254712300404';
    await addNumber(t, account, number, 0);
    const sent = await sendText(t, account, `+${number}`, user, 'late-fail-1');
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await once(t, account, 'late-fail-1', 'FAILED');
    const replay = await sendText(t, account, `+${number}`, user, 'late-fail-1');
    assert.equal(replay.status, 200, JSON.stringify(replay.body));
    assert.deepEqual(replay.body.data, sent.body.data);
  });
});

describe('a forged or foreign opaque id', () => {
  let t: TestGateway;
  let victim: TestAccount;
  let attacker: TestAccount;
  let receiver: Receiver;
  const VICTIM_NUMBER = '14155550171';
  const ATTACKER_NUMBER = '14155550172';
  const USER = '254712300411';

  /** A status webhook as the network signs it: what someone able to make the network emit one can cause. */
  async function postStatus(phoneNumberId: string, recipient: string, callbackData: string, id: string) {
    const item = statusItem({
      id,
      status: 'delivered',
      at: Date.now(),
      recipient,
      conversation: null,
      callbackData,
    });
    const raw = serializeWebhook(messagesEnvelope(phoneNumberId, { statuses: [item] }));
    const r = await fetch(`${t.url}/webhooks/network`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signBody(t.gateway.config.graph.appSecret, raw),
      },
      body: raw,
    });
    assert.equal(r.status, 200, await r.text());
  }

  before(async () => {
    t = await startGateway({
      env: {
        NETWORK_TIMEOUT_MS: '300',
        RATE_LIMIT_PER_SECOND: '0',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
      },
    });
    victim = await createAccount(t, 'Victim Co');
    attacker = await createAccount(t, 'Attacker Co');
    await addNumber(t, victim, VICTIM_NUMBER, 1);
    await addNumber(t, attacker, ATTACKER_NUMBER, 1);
    receiver = await startReceiver();
    await subscribe(t, victim, receiver);
    await userSays(t, USER, VICTIM_NUMBER, { text: 'hello' });
    await eventually(
      async () => (await t.gateway.repos.conversations.lastInboundAt(VICTIM_NUMBER, USER)) !== undefined,
    );
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('statuses naming another number, recipient or account change nothing; the genuine one settles it', async () => {
    await setFaults(t, { timeout: true });
    let first: ApiResponse;
    let afterForgeries: ApiResponse;
    try {
      first = await sendText(t, victim, `+${VICTIM_NUMBER}`, USER, 'victim-1');
      assertUnknown(first, 504, 'network timeout');
      const row = await t.gateway.repos.messages.findByClientId(victim.accountId, 'victim-1');
      assert.ok(row);
      // The attacker's own number, the shared sandbox number, the victim's number to another recipient,
      // and a phone-number id nobody owns: each names the victim's message by its opaque id.
      await postStatus(ATTACKER_NUMBER, USER, row.id, 'wamid.FORGED-1');
      await postStatus(DEFAULT_SANDBOX_NUMBER, USER, row.id, 'wamid.FORGED-2');
      await postStatus(VICTIM_NUMBER, '254712300999', row.id, 'wamid.FORGED-3');
      await postStatus('14155550199', USER, row.id, 'wamid.FORGED-4');
      // The webhook is handled before it is answered: whatever it changed is committed by now.
      afterForgeries = await lookup(t, victim, 'victim-1');
    } finally {
      await clearFaults(t);
    }
    assert.equal(afterForgeries.body.data.status, 'PENDING', JSON.stringify(afterForgeries.body));
    assert.equal(afterForgeries.body.data.waId, null);
    assert.deepEqual(afterForgeries.body.data.timeline, []);

    const settled = await once(t, victim, 'victim-1', 'READ');
    const phone = (await receivedBy(t, USER)).find((m) => m.rendered === 'text of victim-1');
    assert.equal(settled.waId, phone.id);
    const events = await eventually(() => {
      const seen = statusEvents(receiver, 'victim-1');
      return seen.size === 3 ? seen : undefined;
    });
    for (const e of events.values()) assert.equal(e.waId, phone.id, 'no event carries a forged id');
  });
});

describe('an unknown outcome no status ever settles', () => {
  let t: TestGateway;
  let account: TestAccount;
  let receiver: Receiver;

  before(async () => {
    t = await startGateway({
      env: {
        NETWORK_TIMEOUT_MS: '300',
        NETWORK_UNKNOWN_OUTCOME_MS: '1000',
        // The network takes sends but never reports a status.
        SIMULATOR_STATUS_WEBHOOKS: 'false',
        RATE_LIMIT_PER_SECOND: '0',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms',
      },
    });
    account = await createAccount(t, 'Silent Co');
    receiver = await startReceiver();
    await subscribe(t, account, receiver);
  });
  after(async () => {
    await clearFaults(t);
    await t.close();
    await receiver.close();
  });

  test('after NETWORK_UNKNOWN_OUTCOME_MS it is FAILED with the reason, and a FAILED event is published', async () => {
    const user = '254712300421';
    await joinSandbox(t, account, user);
    await setFaults(t, { timeout: true });
    const first = await sendText(t, account, SANDBOX, user, 'silent-1');
    assertUnknown(first, 504, 'network timeout');
    assert.match(first.body.message, /within 1 s/);

    const failed = await once(t, account, 'silent-1', 'FAILED');
    assert.equal(failed.waId, null);
    assert.equal(failed.statusDesc, 'Message could not be delivered');
    assert.deepEqual(failed.error, {
      kind: 'unknown_outcome',
      code: 0,
      httpStatus: 0,
      title: 'network timeout',
      details: 'no answer within 300 ms; no status report within 1 s',
    });
    assert.deepEqual(
      failed.timeline.map((e: { status: string }) => e.status),
      ['FAILED'],
    );
    const event = await eventually(() => statusEvents(receiver, 'silent-1').get('FAILED'));
    assert.equal(event.waId, null);
    assert.match(event.error.message, /no status report for it arrived within 1 s, so it is marked FAILED/);
    assert.deepEqual(event.error.network, failed.error, 'the event carries the same recorded failure');

    const replay = await sendText(t, account, SANDBOX, user, 'silent-1');
    assert.equal(replay.status, 504);
    assert.equal(replay.body.message, event.error.message);
  });
});
