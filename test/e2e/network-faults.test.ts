/**
 * Network faults end to end: a real gateway sends through its real connector over HTTP to its simulator,
 * whose fault controls (`/simulator/faults`) make the network slow, failing or throttled. Every count of
 * what the network received comes from the virtual phone itself. A network that takes a send and does not
 * answer in time (an unknown outcome) is in unknown-outcome.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { encryptSecret } from '../../src/lib/sealed-secrets.ts';
import { clearFaults, setFaults } from '../support/faults.ts';
import {
  type ApiResponse,
  call,
  createAccount,
  eventually,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const FROM = `+${DEFAULT_SANDBOX_NUMBER}`;

/** Messages the phone received with this exact text (the network's own record of what it delivered). */
async function copiesOf(t: TestGateway, user: string, text: string): Promise<number> {
  return (await receivedBy(t, user)).filter((m) => m.rendered === text).length;
}

function sendText(t: TestGateway, account: TestAccount, user: string, messageId: string, text: string) {
  return call(t.url, 'POST', '/api/v1/msg/message/text', {
    key: account.apiKey,
    body: { messageId, from: FROM, to: `+${user}`, message: text },
  });
}

function assertEnvelopeError(r: ApiResponse, status: number, message: RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.status, 'error');
  assert.equal(r.body.data, null);
  assert.equal(r.body.errors, null);
  assert.match(r.body.message, message);
}

describe('network faults through a real gateway', () => {
  let t: TestGateway;
  let account: TestAccount;

  before(async () => {
    t = await startGateway({
      // The API's own rate limit is not under test.
      env: { NETWORK_TIMEOUT_MS: '800', RATE_LIMIT_PER_SECOND: '0' },
    });
    account = await createAccount(t);
  });
  after(async () => t.close());

  test('latency below the timeout: the send succeeds', async () => {
    const user = '254712300101';
    await joinSandbox(t, account, user);
    await setFaults(t, { latencyMs: 300 });
    try {
      const r = await sendText(t, account, user, 'slow-1', 'slow but fine');
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.match(r.body.data.waId, /^wamid\./);
    } finally {
      await clearFaults(t);
    }
    assert.equal(await copiesOf(t, user, 'slow but fine'), 1);
  });

  test('5xx for a moment: retried within the budget, and sent once', async () => {
    const user = '254712300103';
    await joinSandbox(t, account, user);
    await setFaults(t, { status5xx: true, forMs: 300 });
    const r = await sendText(t, account, user, 'flaky-1', 'after a hiccup');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(await copiesOf(t, user, 'after a hiccup'), 1);
    assert.deepEqual((await call(t.url, 'GET', '/simulator/faults')).body, {
      faults: {},
      until: null,
      held: 0,
    });
  });

  test('5xx past the budget: 502, the claim released, a later retry sends once', async () => {
    const user = '254712300104';
    await joinSandbox(t, account, user);
    await setFaults(t, { status5xx: 1 });
    let failed: ApiResponse;
    try {
      failed = await sendText(t, account, user, 'down-1', 'once the network is back');
    } finally {
      await clearFaults(t);
    }
    assertEnvelopeError(
      failed,
      502,
      /^The network is unavailable \(#131016\) .+ \(3 attempts\); nothing was sent/,
    );
    assert.match(failed.body.message, /retry with the same messageId/);
    assert.match(failed.headers.get('retry-after') ?? '', /^\d+$/);
    assert.equal(await copiesOf(t, user, 'once the network is back'), 0);
    const missing = await call(t.url, 'GET', '/api/v1/msg/message/down-1', { key: account.apiKey });
    assert.equal(missing.status, 404, 'nothing was sent, so nothing is stored under the messageId');

    const retried = await sendText(t, account, user, 'down-1', 'once the network is back');
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    const replayed = await sendText(t, account, user, 'down-1', 'once the network is back');
    assert.equal(replayed.body.data.waId, retried.body.data.waId);
    assert.equal(await copiesOf(t, user, 'once the network is back'), 1);
  });

  test('the network throttling the number: 503 with Retry-After, nothing sent', async () => {
    const user = '254712300105';
    await joinSandbox(t, account, user);
    await setFaults(t, { throughput: true, forMs: 60_000 });
    let throttled: ApiResponse;
    try {
      assert.match((await call(t.url, 'GET', '/simulator/faults')).body.until, /^\d{4}-\d\d-\d\dT/);
      throttled = await sendText(t, account, user, 'busy-1', 'when there is room');
    } finally {
      await clearFaults(t);
    }
    assertEnvelopeError(throttled, 503, /^The network is limiting sends from this number \(#130429\)/);
    assert.match(throttled.body.message, /nothing was sent; retry with the same messageId after \d+ s/);
    assert.match(throttled.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(await copiesOf(t, user, 'when there is room'), 0);

    const retried = await sendText(t, account, user, 'busy-1', 'when there is room');
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(await copiesOf(t, user, 'when there is room'), 1);
  });

  test('a token the network refuses: 502, FAILED, and the status API shows the network failure as recorded', async () => {
    const number = '14155550171';
    await t.gateway.repos.numbers.addNumber({
      accountId: account.accountId,
      phone: number,
      phoneNumberId: number,
      sealedAccessToken: encryptSecret('a-revoked-token', t.gateway.secretKey),
      sessionCheck: false,
      wabaId: null,
    });
    const refused = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'revoked-1', from: `+${number}`, to: '+254712300106', message: 'never sent' },
    });
    assertEnvelopeError(
      refused,
      502,
      /^The network refused the credentials of this business number \(#190\) /,
    );

    const stored = await call(t.url, 'GET', '/api/v1/msg/message/revoked-1', { key: account.apiKey });
    assert.equal(stored.body.data.status, 'FAILED');
    const { error } = stored.body.data;
    // Exactly the fields a recorded failure has always had, in their order.
    assert.deepEqual(Object.keys(error), ['kind', 'code', 'httpStatus', 'title', 'details']);
    assert.deepEqual([error.kind, error.code, error.httpStatus], ['permanent', 190, 401]);
    const replayed = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'revoked-1', from: `+${number}`, to: '+254712300106', message: 'never sent' },
    });
    assert.equal(replayed.status, 502);
    assert.equal(replayed.body.message, refused.body.message);
  });
});

describe('pacing sends per number', () => {
  let t: TestGateway;

  before(async () => {
    t = await startGateway({
      env: {
        // A tier low enough that the burst outruns it however slowly a busy machine lets it arrive, and a
        // network timeout long enough that a send admitted by the pace is never cut short there.
        NETWORK_MAX_SENDS_PER_SECOND: '5',
        NETWORK_TIMEOUT_MS: '60000',
        RATE_LIMIT_PER_SECOND: '0',
        // One user receives the whole burst: the pair limit is not what this case is about.
        SIMULATOR_PAIR_BURST: '0',
      },
    });
  });
  after(async () => t.close());

  test('a burst of 200 from one number: each 200 or 503 with Retry-After, each 200 delivered once', async () => {
    const account = await createAccount(t);
    const user = '254712300201';
    await joinSandbox(t, account, user);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => sendText(t, account, user, `burst-${i}`, `burst message ${i}`)),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 503);
    assert.equal(ok.length + refused.length, 200, JSON.stringify(responses.map((r) => r.status)));
    assert.ok(ok.length > 0 && refused.length > 0, `${ok.length} sent, ${refused.length} refused`);
    for (const r of refused) {
      assert.match(
        r.body.message,
        /^Too many sends from this number right now: sends from this number are paced to 5 per second/,
      );
      assert.match(r.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    }
    assert.equal(new Set(ok.map((r) => r.body.data.waId)).size, ok.length);

    const phone = await receivedBy(t, user);
    const texts = phone.map((m) => m.rendered).filter((text: string) => text.startsWith('burst message '));
    assert.equal(texts.length, ok.length, 'the phone received exactly the messages answered 200');
    assert.equal(new Set(texts).size, texts.length, 'no message arrived twice');
    const sentTexts = new Set(ok.map((r) => `burst message ${r.body.data.messageId.slice('burst-'.length)}`));
    assert.deepEqual(new Set(texts), sentTexts);

    // A refused request's messageId is free: retrying it later sends it.
    const refusedId = responses.findIndex((r) => r.status === 503);
    const later = await eventually(async () => {
      const r = await sendText(t, account, user, `burst-${refusedId}`, `burst message ${refusedId}`);
      return r.status === 200 ? r : undefined;
    });
    assert.equal(later.body.data.messageId, `burst-${refusedId}`);
  });
});
