/**
 * The settlement rules of unknown outcomes (docs/adr/0013), over an in-memory store: which status may
 * settle which message, what the sweep does with what it finds, and the words the client is given.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SentMessage, StatusSender, UnsettledStore } from '../../src/domain/ports/messages.ts';
import type { NetworkFailure } from '../../src/domain/ports/network.ts';
import type { StatusEvent } from '../../src/domain/ports/network-events.ts';
import {
  expiredOutcome,
  type SettleDeps,
  sameSubscriber,
  settleFromStatus,
  spokenDuration,
  storedUnknown,
  sweepUnsettled,
  unknownOutcomeError,
} from '../../src/domain/unknown-outcomes.ts';

const SANDBOX = { phone: '14155550100', phoneNumberId: '100200300' };
const NUMBERS = new Map([['555000111', { phone: '14155550123', accountId: 'acc_owner' }]]);
const TIMEOUT: NetworkFailure = {
  kind: 'unknown_outcome',
  cause: 'timeout',
  code: 0,
  httpStatus: 0,
  title: 'network timeout',
  details: 'no answer within 300 ms',
};

function message(fields: Partial<SentMessage>): SentMessage {
  return {
    id: 'msg_1',
    accountId: 'acc_owner',
    clientMessageId: 'order-1',
    requestHash: 'h',
    kind: 'text',
    fromPhone: '14155550123',
    toPhone: '5511987654321',
    content: '{}',
    waId: null,
    status: 'PENDING',
    statusRank: 0,
    error: storedUnknown(TIMEOUT, 300_000),
    createdAt: 1000,
    updatedAt: 1000,
    ...fields,
  };
}

/** The store's guarded moves, in memory: what the SQL in src/store/unsettled-messages.ts decides. */
class MemoryStore implements UnsettledStore {
  readonly calls: string[] = [];
  readonly rows: SentMessage[];
  constructor(rows: SentMessage[]) {
    this.rows = rows;
  }

  #open(id: string, sender: StatusSender) {
    return this.rows.find(
      (m) =>
        m.id === id &&
        m.status === 'PENDING' &&
        m.waId === null &&
        m.fromPhone === sender.phone &&
        (sender.accountId === null || m.accountId === sender.accountId),
    );
  }
  async markUnknown(id: string, at: number, error: string) {
    this.calls.push(`markUnknown ${id}`);
    const m = this.rows.find((r) => r.id === id && r.status === 'PENDING' && r.error === null);
    if (m) Object.assign(m, { error, updatedAt: at });
    return m !== undefined;
  }
  async findOpenFor(id: string, sender: StatusSender) {
    return this.#open(id, sender);
  }
  async settleFromNetwork(id: string, sender: StatusSender, waId: string, at: number) {
    this.calls.push(`settle ${id} ${waId}`);
    const m = this.#open(id, sender);
    if (m) Object.assign(m, { status: 'SENT', statusRank: 1, waId: waId, error: null, updatedAt: at });
    return m !== undefined;
  }
  async listUnsettled(abandonedBefore: number, unknownBefore: number, limit: number) {
    this.calls.push(`list ${abandonedBefore} ${unknownBefore} ${limit}`);
    return this.rows.filter(
      (m) =>
        m.status === 'PENDING' &&
        ((m.error === null && m.createdAt <= abandonedBefore) ||
          (m.error !== null && m.updatedAt <= unknownBefore)),
    );
  }
  async failUnsettled(id: string, at: number, error: string) {
    this.calls.push(`fail ${id}`);
    const m = this.rows.find((r) => r.id === id && r.status === 'PENDING' && r.error !== null);
    if (m) Object.assign(m, { status: 'FAILED', statusRank: 3, error, updatedAt: at });
    return m !== undefined;
  }
}

function settleDeps(store: MemoryStore): SettleDeps {
  return {
    sandbox: SANDBOX,
    numbers: { findNumberByPhoneNumberId: async (id) => NUMBERS.get(id) },
    messages: store,
  };
}

function status(fields: Partial<StatusEvent>): StatusEvent {
  return {
    kind: 'status',
    phoneNumberId: '555000111',
    waId: 'wamid.NETWORK',
    status: 'delivered',
    at: 2000,
    errors: [],
    recipient: '5511987654321',
    recipientUserId: null,
    callbackData: 'msg_1',
    network: {},
    ...fields,
  };
}

describe('which status settles which message', () => {
  test('the owning number, its account and the same recipient settle the message, recording the network id', async () => {
    const store = new MemoryStore([message({})]);
    assert.equal(await settleFromStatus(settleDeps(store), status({})), true);
    assert.equal(store.rows[0]!.waId, 'wamid.NETWORK');
    assert.equal(store.rows[0]!.status, 'SENT');
  });

  test('a status without the opaque id, or for a number nobody here owns, touches nothing', async () => {
    const store = new MemoryStore([message({})]);
    assert.equal(await settleFromStatus(settleDeps(store), status({ callbackData: null })), false);
    assert.equal(await settleFromStatus(settleDeps(store), status({ phoneNumberId: '999' })), false);
    assert.deepEqual(store.calls, []);
  });

  test("another account's number or the sandbox naming the message's id touches nothing", async () => {
    const numbers = new Map([
      ...NUMBERS,
      ['555000222', { phone: '14155550177', accountId: 'acc_attacker' }],
      // Even a number registered with the same phone digits under another account.
      ['555000333', { phone: '14155550123', accountId: 'acc_attacker' }],
    ]);
    const store = new MemoryStore([message({})]);
    const deps = {
      ...settleDeps(store),
      numbers: { findNumberByPhoneNumberId: async (id: string) => numbers.get(id) },
    };
    for (const phoneNumberId of ['555000222', '555000333', SANDBOX.phoneNumberId]) {
      assert.equal(await settleFromStatus(deps, status({ phoneNumberId })), false, phoneNumberId);
    }
    assert.deepEqual(store.calls, []);
    assert.equal(store.rows[0]!.status, 'PENDING');
  });

  test('a sandbox message is settled by a sandbox status, whichever account sent it', async () => {
    const store = new MemoryStore([message({ fromPhone: SANDBOX.phone, accountId: 'acc_any' })]);
    const event = status({ phoneNumberId: SANDBOX.phoneNumberId });
    assert.equal(await settleFromStatus(settleDeps(store), event), true);
  });

  test('another recipient touches nothing; the same subscriber under its WhatsApp id settles', async () => {
    const store = new MemoryStore([message({})]);
    assert.equal(await settleFromStatus(settleDeps(store), status({ recipient: '5511912345678' })), false);
    assert.deepEqual(store.calls, []);
    // Brazil: the WhatsApp id of +55 11 98765-4321 may lack the mobile 9.
    assert.equal(await settleFromStatus(settleDeps(store), status({ recipient: '551187654321' })), true);
  });

  test("a send to a business-scoped user id is matched by the status's recipient_user_id", async () => {
    const toUserId = 'BR.13491208655302741918';
    const store = new MemoryStore([message({ toPhone: toUserId })]);
    const other = status({ recipient: null, recipientUserId: 'BR.99991208655302741918' });
    assert.equal(await settleFromStatus(settleDeps(store), other), false);
    assert.deepEqual(store.calls, []);
    // Meta may name the number as well once it knows it: it does not contradict the user id.
    const same = status({ recipient: '5511987654321', recipientUserId: toUserId });
    assert.equal(await settleFromStatus(settleDeps(store), same), true);
  });

  test('a message already settled, or FAILED, is not settled again', async () => {
    const store = new MemoryStore([
      message({ id: 'msg_sent', waId: 'wamid.FIRST', status: 'SENT', statusRank: 1, error: null }),
      message({ id: 'msg_failed', status: 'FAILED', statusRank: 3 }),
    ]);
    assert.equal(await settleFromStatus(settleDeps(store), status({ callbackData: 'msg_sent' })), false);
    assert.equal(await settleFromStatus(settleDeps(store), status({ callbackData: 'msg_failed' })), false);
    assert.equal(store.rows[0]!.waId, 'wamid.FIRST');
  });

  test('same subscriber: equal, or the same start and last eight digits', () => {
    assert.equal(sameSubscriber('5511987654321', '5511987654321'), true);
    assert.equal(sameSubscriber('5511987654321', '551187654321'), true);
    assert.equal(sameSubscriber('5215512345678', '525512345678'), true, 'Mexico without the mobile 1');
    assert.equal(sameSubscriber('254712345678', '254712345679'), false);
    assert.equal(sameSubscriber('254712345678', '14712345678'), false, 'another country');
    assert.equal(sameSubscriber('254712345678', 'user.12345678'), false);
  });
});

describe('the sweep', () => {
  test('marks abandoned claims unknown, fails expired unknown outcomes, and asks with the right bounds', async () => {
    const now = 10_000_000;
    const store = new MemoryStore([
      message({ id: 'msg_abandoned', error: null, createdAt: now - 61_000, updatedAt: now - 61_000 }),
      message({ id: 'msg_expired', updatedAt: now - 300_000 }),
      message({ id: 'msg_waiting', updatedAt: now - 299_000 }),
      message({ id: 'msg_in_flight', error: null, createdAt: now - 59_000 }),
    ]);
    const seen = await sweepUnsettled({
      messages: store,
      abandonedClaimMs: 60_000,
      unknownOutcomeMs: 300_000,
      now: () => now,
    });
    assert.equal(seen, 2);
    assert.deepEqual(store.calls, [
      `list ${now - 60_000} ${now - 300_000} 100`,
      'markUnknown msg_abandoned',
      'fail msg_expired',
    ]);
    const [abandoned, expired, waiting, inFlight] = store.rows;
    assert.equal(abandoned!.status, 'PENDING');
    assert.equal(JSON.parse(abandoned!.error!).network.title, 'send interrupted');
    assert.equal(abandoned!.updatedAt, now, 'its time to wait for a report starts now');
    assert.equal(expired!.status, 'FAILED');
    assert.equal(waiting!.status, 'PENDING');
    assert.equal(inFlight!.error, null);
  });

  test('an expired outcome keeps its HTTP status and code and says why it failed', () => {
    const stored = JSON.parse(expiredOutcome(storedUnknown(TIMEOUT, 300_000), 300_000));
    assert.deepEqual(stored, {
      httpStatus: 504,
      code: 'network_timeout',
      message:
        'The network did not confirm the message (network timeout: no answer within 300 ms) and no status report for it arrived within 5 min, so it is marked FAILED; it will not be sent again under this messageId',
      network: {
        kind: 'unknown_outcome',
        code: 0,
        httpStatus: 0,
        title: 'network timeout',
        details: 'no answer within 300 ms; no status report within 5 min',
      },
    });
  });
});

describe('what the client is told', () => {
  test('a timeout is a 504 that says the outcome is not yet known and when it will be', () => {
    const error = unknownOutcomeError(TIMEOUT, 90_000);
    assert.equal(error.status, 504);
    assert.equal(
      error.message,
      "The network did not confirm the message (network timeout: no answer within 300 ms), so its outcome is not yet known: the network's status reports will settle it, or it is marked FAILED if none arrives within 90 s; check its status instead of sending it again under another messageId",
    );
    const lost = { ...TIMEOUT, cause: 'connection_lost', title: 'network connection lost' } as const;
    assert.equal(unknownOutcomeError(lost, 1000).status, 502);
  });

  test('durations are said as a person would', () => {
    assert.equal(spokenDuration(300_000), '5 min');
    assert.equal(spokenDuration(90_000), '90 s');
    assert.equal(spokenDuration(1500), '1500 ms');
    assert.equal(spokenDuration(300), '300 ms');
  });
});
