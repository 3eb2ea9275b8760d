/**
 * The send pipeline (src/domain/send-message.ts) over in-memory ports, with no database and no HTTP:
 * deduplication by messageId, the 24-hour window, sandbox membership, and every outcome of the network
 * call (accepted, refused, transient, unknown, a connector that throws, a claim left by a stopped node).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, mock, test } from 'node:test';
import { GatewayError } from '../../src/domain/errors.ts';
import { sendText } from '../../src/domain/messages/send-text.ts';
import type { SandboxMembership } from '../../src/domain/ports/conversations.ts';
import type { CloudMessage, NetworkFailure, SendResult } from '../../src/domain/ports/network.ts';
import type { BusinessNumber } from '../../src/domain/ports/numbers.ts';
import { type SendDeps, sendMessage, WINDOW_MS } from '../../src/domain/send-message.ts';
import { encryptSecret } from '../../src/lib/sealed-secrets.ts';
import { InMemoryMessages } from '../support/in-memory-ports.ts';

const NOW = 1_800_000_000_000;
const SANDBOX = { phone: '14155550100', phoneNumberId: '100200300', accessToken: 'sandbox-token' };
const OWN = '14155550123';
const USER = '254712345678';
/** A business-scoped user id a message of USER linked to USER's number (src/domain/ports/conversations.ts). */
const LINKED_ID = 'KE.13491208655302741918';
/** One no message linked to a number. */
const BARE_ID = 'KE.99999999999999999999';

type Answer = SendResult | Error;

/** A pipeline over in-memory ports; `answers` are what the network says to each send, in turn. */
function pipeline(options: { answers?: Answer[]; sessionCheck?: boolean; lastInbound?: number } = {}) {
  const secretKey = randomBytes(32);
  const messages = new InMemoryMessages();
  const calls: { to: string; message: CloudMessage; callbackData: string | undefined }[] = [];
  const answers = [...(options.answers ?? [])];
  const members = new Map<string, SandboxMembership>();
  const number: BusinessNumber = {
    id: 'num_1',
    accountId: 'acc_a',
    phone: OWN,
    phoneNumberId: '555000111',
    sealedAccessToken: encryptSecret('own-token', secretKey),
    sessionCheck: options.sessionCheck ?? true,
    wabaId: null,
    createdAt: 0,
  };
  let clock = NOW;
  const deps: SendDeps = {
    sandbox: SANDBOX,
    secretKey,
    numbers: {
      findNumberOfAccount: async (accountId, phone) =>
        accountId === number.accountId && phone === number.phone ? number : undefined,
    },
    conversations: {
      sandboxMembership: async (_sandbox, user) => members.get(user),
      phoneOfUser: async (business, userId) => (business === OWN && userId === LINKED_ID ? USER : undefined),
    },
    accounts: { findAccount: async (id) => ({ id, name: id, joinCode: `code-${id}`, createdAt: 0 }) },
    messages,
    connector: {
      async sendMessage(_credentials, to, message, sendOptions) {
        calls.push({ to, message, callbackData: sendOptions?.callbackData });
        const answer = answers.shift() ?? { ok: true, waId: `wamid.${calls.length}` };
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    windowOpenSince: async (business, user) =>
      business === OWN && user === USER ? options.lastInbound : undefined,
    resolveFlow: async () => ({}),
    resolveTemplate: async () => ({}),
    resolveMedia: async () => ({}),
    unknownOutcomeMs: 300_000,
    abandonedClaimMs: 60_000,
    now: () => clock,
  };
  const send = (
    messageId: string,
    body: { from?: string; to?: string; message?: string } = {},
    accountId = 'acc_a',
  ) =>
    sendMessage(deps, accountId, sendText, {
      messageId,
      from: body.from ?? OWN,
      to: body.to ?? USER,
      message: body.message ?? 'hello',
    });
  return {
    deps,
    messages,
    calls,
    members,
    send,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const failure = (kind: NetworkFailure['kind'], fields: Partial<NetworkFailure> = {}): NetworkFailure => ({
  kind,
  cause: 'graph',
  code: 131026,
  httpStatus: 400,
  title: 'Message undeliverable',
  details: 'the message could not be delivered',
  ...fields,
});

const rejectsWith = (code: string, message?: RegExp) => (error: unknown) =>
  error instanceof GatewayError &&
  error.code === code &&
  (message === undefined || message.test(error.message));

describe('send pipeline: deduplication', () => {
  test('a repeated request replays the first answer without a second network call', async () => {
    const p = pipeline({ lastInbound: NOW - 1000 });
    const first = await p.send('order-1');
    assert.deepEqual(first, {
      messageId: 'order-1',
      waId: 'wamid.1',
      status: 'SENT',
      statusDesc: first.statusDesc,
    });
    assert.deepEqual(await p.send('order-1'), first);
    assert.equal(p.calls.length, 1);
    assert.equal(p.calls[0]!.callbackData, p.messages.messages[0]!.id, 'the message id rides along');
    assert.deepEqual(
      (await p.messages.timeline(p.messages.messages[0]!.id)).map((s) => s.status),
      ['SENT'],
    );
  });

  test('a messageId reused for another message is a conflict on `messageId`', async () => {
    const p = pipeline({ lastInbound: NOW - 1000 });
    await p.send('order-1');
    await assert.rejects(
      p.send('order-1', { message: 'something else' }),
      (e) =>
        rejectsWith('conflict', /already used for a different message/)(e) &&
        e instanceof GatewayError &&
        e.field === 'messageId',
    );
    assert.equal(p.calls.length, 1);
  });

  test('messageIds are per account: another account may use the same one', async () => {
    const p = pipeline();
    p.members.set(USER, { accountId: 'acc_b', lastInboundAt: NOW - 1000 });
    await p.send('order-1', { from: SANDBOX.phone }, 'acc_b');
    p.members.set(USER, { accountId: 'acc_c', lastInboundAt: NOW - 1000 });
    await p.send('order-1', { from: SANDBOX.phone }, 'acc_c');
    assert.equal(p.calls.length, 2);
  });
});

describe('send pipeline: the 24-hour window', () => {
  test('closed window: session_closed, and the claim is released so the messageId may be used again', async () => {
    const p = pipeline({ lastInbound: NOW - WINDOW_MS - 1 });
    await assert.rejects(p.send('late-1'), rejectsWith('session_closed', /in the last 24 hours/));
    assert.equal(p.calls.length, 0);
    assert.equal(p.messages.messages.length, 0);
  });

  test('a user who wrote just within 24 hours may be messaged; one who never wrote may not', async () => {
    assert.equal((await pipeline({ lastInbound: NOW - WINDOW_MS }).send('edge')).status, 'SENT');
    await assert.rejects(pipeline().send('never'), rejectsWith('session_closed'));
  });

  test('a number without session check sends outside the window', async () => {
    const p = pipeline({ sessionCheck: false });
    assert.equal((await p.send('unchecked')).status, 'SENT');
  });
});

describe('send pipeline: recipients named by a business-scoped user id', () => {
  test('an id linked to a number is that number: its window is found, and the network gets the number', async () => {
    const p = pipeline({ lastInbound: NOW - 1000 });
    assert.equal((await p.send('by-id', { to: LINKED_ID })).status, 'SENT');
    assert.equal(p.calls[0]?.to, USER);
  });

  test('an id no message linked is its own key: no window yet is the usual refusal, never a 400', async () => {
    const p = pipeline({ lastInbound: NOW - 1000 });
    await assert.rejects(p.send('bare-id', { to: BARE_ID }), rejectsWith('session_closed'));
    await assert.rejects(p.send('not-an-id', { to: 'KE.' }), rejectsWith('invalid_request', /`to`/));
  });
});

describe('send pipeline: sandbox membership', () => {
  test("a user who has not joined the account's sandbox is refused with the join code, on `to`", async () => {
    const p = pipeline();
    const refusal = (e: unknown) =>
      rejectsWith('forbidden_number', /must first send "join code-acc_a"/)(e) &&
      e instanceof GatewayError &&
      e.field === 'to';
    await assert.rejects(p.send('sb-1', { from: SANDBOX.phone }), refusal);
    p.members.set(USER, { accountId: 'acc_other', lastInboundAt: NOW });
    await assert.rejects(p.send('sb-2', { from: SANDBOX.phone }), refusal);
    assert.equal(p.calls.length, 0);
  });

  test('a member is sent to with the sandbox credentials; the window counts from the membership', async () => {
    const p = pipeline();
    p.members.set(USER, { accountId: 'acc_a', lastInboundAt: NOW - 1000 });
    assert.equal((await p.send('sb-ok', { from: SANDBOX.phone })).status, 'SENT');
    p.members.set(USER, { accountId: 'acc_a', lastInboundAt: NOW - WINDOW_MS - 1 });
    await assert.rejects(p.send('sb-closed', { from: SANDBOX.phone }), rejectsWith('session_closed'));
  });

  test('a number of another account is refused on `from`', async () => {
    const p = pipeline({ lastInbound: NOW });
    await assert.rejects(
      p.send('x-1', {}, 'acc_b'),
      (e) => rejectsWith('forbidden_number')(e) && e instanceof GatewayError && e.field === 'from',
    );
  });
});

describe('send pipeline: outcomes', () => {
  test('a refused message is FAILED with its error, and a retry replays that error', async () => {
    const p = pipeline({ lastInbound: NOW, answers: [{ ok: false, failure: failure('permanent') }] });
    await assert.rejects(p.send('bad-1'), rejectsWith('network_rejected', /\(#131026\)/));
    const stored = p.messages.messages[0]!;
    assert.equal(stored.status, 'FAILED');
    assert.deepEqual(JSON.parse(stored.error!), {
      httpStatus: 422,
      code: 'network_rejected',
      message: JSON.parse(stored.error!).message,
      network: {
        kind: 'permanent',
        code: 131026,
        httpStatus: 400,
        title: 'Message undeliverable',
        details: 'the message could not be delivered',
      },
    });
    // The replay carries the network's code as the first answer did, for the gateway's own decisions.
    const codeOf = async (attempt: Promise<unknown>) =>
      attempt.then(
        () => undefined,
        (e: GatewayError) => e.networkCode,
      );
    assert.equal(await codeOf(p.send('bad-1')), 131026);
    assert.equal(p.calls.length, 1);
  });

  test('a transient failure releases the claim: the same messageId is sent on retry', async () => {
    const transient = failure('transient', { cause: 'http', code: 0, httpStatus: 503, retryAfterMs: 2000 });
    const p = pipeline({ lastInbound: NOW, answers: [{ ok: false, failure: transient }] });
    await assert.rejects(
      p.send('flaky-1'),
      (e) =>
        rejectsWith('network_error', /nothing was sent; retry with the same messageId after 2 s$/)(e) &&
        e instanceof GatewayError &&
        e.retryAfterSeconds === 2,
    );
    assert.equal(p.messages.messages.length, 0);
    assert.equal((await p.send('flaky-1')).waId, 'wamid.2');
    assert.equal(p.calls.length, 2);
  });

  test('an unknown outcome stays PENDING with its reason; a retry gets the same answer, never a second send', async () => {
    const timeout = failure('unknown_outcome', {
      cause: 'timeout',
      code: 0,
      httpStatus: 0,
      title: 'network timeout',
      details: 'no answer within 300 ms',
    });
    const p = pipeline({ lastInbound: NOW, answers: [{ ok: false, failure: timeout }] });
    const unknown = rejectsWith('network_timeout', /outcome is not yet known.*within 5 min/);
    await assert.rejects(p.send('lost-1'), unknown);
    const stored = p.messages.messages[0]!;
    assert.equal(stored.status, 'PENDING');
    assert.equal(JSON.parse(stored.error!).network.cause, undefined, 'the cause is not recorded');
    await assert.rejects(p.send('lost-1'), unknown);
    assert.equal(p.calls.length, 1);
    // The network's status report settles it: the retry now replays the send.
    await p.messages.settleFromNetwork(stored.id, { phone: OWN, accountId: 'acc_a' }, 'wamid.LATE', NOW + 1);
    const replayed = await p.send('lost-1');
    assert.equal(replayed.waId, 'wamid.LATE');
    assert.equal(replayed.status, 'SENT');
    assert.equal(p.calls.length, 1);
  });

  test('a connector that throws leaves an unknown outcome, and the error goes up', async () => {
    const p = pipeline({ lastInbound: NOW, answers: [new Error('connector bug')] });
    await assert.rejects(p.send('bug-1'), /connector bug/);
    const stored = p.messages.messages[0]!;
    assert.equal(stored.status, 'PENDING');
    assert.match(JSON.parse(stored.error!).message, /send failed inside the gateway/);
    await assert.rejects(p.send('bug-1'), rejectsWith('network_error'));
    assert.equal(p.calls.length, 1);
  });

  test('a duplicate of a send still in flight looks again less and less often, then is told it is in progress', async () => {
    const p = pipeline({ lastInbound: NOW });
    // A claim of this very request, not old enough to count as abandoned: its node may still be sending.
    await p.send('probe');
    await p.messages.reserve({
      id: 'msg_held',
      accountId: 'acc_a',
      clientMessageId: 'held-1',
      requestHash: p.messages.messages[0]!.requestHash,
      kind: 'text',
      fromPhone: OWN,
      toPhone: USER,
      content: '{}',
      createdAt: NOW,
      updatedAt: NOW,
    });
    let reads = 0;
    const find = p.messages.findByClientId.bind(p.messages);
    p.messages.findByClientId = (accountId, clientMessageId) => {
      reads++;
      return find(accountId, clientMessageId);
    };
    mock.timers.enable({ apis: ['setTimeout', 'Date'], now: NOW });
    try {
      const answer = p.send('held-1').then(
        () => assert.fail('a duplicate of a send in flight must not be answered 200'),
        (error: unknown) => error,
      );
      let settled = false;
      void answer.then(() => {
        settled = true;
      });
      // Virtual time in steps of 10 ms, each followed by the promises it let go.
      for (let waited = 0; !settled && waited <= 6_000; waited += 10) {
        mock.timers.tick(10);
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.ok(rejectsWith('conflict', /still in progress/)(await answer));
      // About twenty looks over the 5 s, where a look every 20 ms took 250.
      assert.ok(reads >= 10 && reads <= 30, `${reads} reads of the claim`);
      assert.equal(p.calls.length, 1, 'only the probe was sent');
    } finally {
      mock.timers.reset();
    }
  });

  test('a claim left PENDING by a stopped node becomes an unknown outcome on retry, never a second send', async () => {
    const p = pipeline({ lastInbound: NOW });
    await p.messages.reserve({
      id: 'msg_orphan',
      accountId: 'acc_a',
      clientMessageId: 'orphan-1',
      requestHash: '',
      kind: 'text',
      fromPhone: OWN,
      toPhone: USER,
      content: '{}',
      createdAt: NOW - 60_000,
      updatedAt: NOW - 60_000,
    });
    // Same request as the orphan's: take its hash from a claim the pipeline makes itself.
    await p.send('probe');
    p.messages.messages[0]!.requestHash = p.messages.messages[1]!.requestHash;
    await assert.rejects(p.send('orphan-1'), rejectsWith('network_error', /send interrupted/));
    assert.equal(p.calls.length, 1, 'only the probe was sent');
    assert.equal(p.messages.messages[0]!.status, 'PENDING');
    assert.notEqual(p.messages.messages[0]!.error, null);
  });
});
