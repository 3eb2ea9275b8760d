/**
 * A slow or hanging receiver must not hold up anyone else's events: deliveries run independently, within
 * concurrency caps per endpoint, per account and in all (docs/webhooks.md, docs/adr/0015). Receivers that
 * hold requests open stand in for hanging customer servers; each test proves a cap with a control event
 * that can only arrive after the dispatcher has considered every held delivery.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { buildGateway } from '../../src/app/build-gateway.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openStore } from '../../src/store/connect.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { call, createAccount, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { type HoldingReceiver, startHoldingReceiver } from '../support/holding-receiver.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

/** Long enough that a delivery cut by the timeout is unmistakable: the tests finish well within it. */
const HANGING_TIMEOUT_MS = '10000';

const cleanups: (() => Promise<void>)[] = [];

describe('a slow or hanging receiver holds up no one else', () => {
  afterEach(async () => {
    // Receivers first: their held requests end at once, so the gateway stops without waiting for them.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function gatewayWith(env: Record<string, string>): Promise<TestGateway> {
    const t = await startGateway({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: HANGING_TIMEOUT_MS, ...env },
    });
    cleanups.push(() => t.close());
    return t;
  }

  async function holding(): Promise<HoldingReceiver> {
    const receiver = await startHoldingReceiver();
    cleanups.push(() => receiver.close());
    return receiver;
  }

  async function fast(): Promise<Receiver> {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    return receiver;
  }

  /** An account with one endpoint per URL, each subscribed to message.received. */
  async function accountWithEndpoints(t: TestGateway, name: string, ...urls: string[]): Promise<string> {
    const account = await createAccount(t, name);
    for (const url of urls) {
      const created = await call(t.url, 'POST', '/api/v1/webhooks', {
        key: account.apiKey,
        body: { url, events: ['message.received'] },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
    }
    return account.accountId;
  }

  /** `n` events of the account, written to the outbox as the domain code writes them. */
  async function emit(t: TestGateway, accountId: string, label: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      await insertEvent(
        t.gateway.store.db,
        accountId,
        'message.received',
        { text: `${label} ${i}` },
        Date.now(),
      );
    }
    t.gateway.dispatcher.wake();
  }

  test("a receiver that never answers does not delay another account's events", async () => {
    const t = await gatewayWith({});
    const hanging = await holding();
    const healthy = await fast();
    const slowAccount = await accountWithEndpoints(t, 'Slow Co', `${hanging.url}/hooks`);
    const fastAccount = await accountWithEndpoints(t, 'Fast Co', healthy.url);

    await emit(t, slowAccount, 'slow', 1);
    await eventually(() => hanging.open().length === 1);
    await emit(t, fastAccount, 'fast', 20);
    // Waits long enough for a dispatcher that awaits the hanging request's timeout to deliver them too.
    const openWhenAllArrived = await eventually(
      () => healthy.received.length >= 20 && hanging.open().length,
      Number(HANGING_TIMEOUT_MS) * 3,
    );
    assert.equal(openWhenAllArrived, 1, 'every fast event arrived while the hanging request was still open');
    assert.equal(hanging.requests[0]!.closed, false);
    assert.deepEqual(
      healthy.received.map((r) => r.json.data.text).sort(),
      Array.from({ length: 20 }, (_, i) => `fast ${i}`).sort(),
    );
  });

  test('one endpoint has at most WEBHOOK_CONCURRENCY_PER_ENDPOINT requests open', async () => {
    const t = await gatewayWith({ WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2' });
    const hanging = await holding();
    const healthy = await fast();
    const slowAccount = await accountWithEndpoints(t, 'Slow Co', `${hanging.url}/hooks`);
    const control = await accountWithEndpoints(t, 'Control Co', healthy.url);

    await emit(t, slowAccount, 'held', 5);
    await eventually(() => hanging.open().length >= 2);
    // The control event is younger than the five held ones: once it has arrived, the dispatcher has
    // claimed past all of them.
    await emit(t, control, 'control', 1);
    await eventually(() => healthy.received.length === 1);
    assert.equal(hanging.requests.length, 2, 'only two of the five deliveries were started');
    assert.equal(hanging.maxOpen, 2);

    // As each held request is answered, the next delivery takes its place: all five arrive, two at a time.
    for (let answered = 0; answered < 5; answered++) {
      const next = await eventually(() => hanging.waiting()[0]);
      next.answer(204);
    }
    await eventually(() => hanging.requests.length === 5 && hanging.open().length === 0);
    assert.equal(hanging.maxOpen, 2);
    assert.deepEqual(hanging.requests.map((r) => r.json.data.text).sort(), [
      'held 0',
      'held 1',
      'held 2',
      'held 3',
      'held 4',
    ]);
  });

  test('one account has at most WEBHOOK_CONCURRENCY_PER_ACCOUNT requests open over its endpoints', async () => {
    const t = await gatewayWith({
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: '3',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
    });
    const hanging = await holding();
    const healthy = await fast();
    const paths = ['/a', '/b', '/c', '/d'];
    const greedy = await accountWithEndpoints(t, 'Greedy Co', ...paths.map((p) => hanging.url + p));
    const control = await accountWithEndpoints(t, 'Control Co', healthy.url);

    await emit(t, greedy, 'held', 2); // two events to each of four endpoints: eight deliveries
    await eventually(() => hanging.open().length >= 3);
    await emit(t, control, 'control', 1);
    await eventually(() => healthy.received.length === 1);
    assert.equal(hanging.requests.length, 3, 'only three of the account’s eight deliveries were started');
    assert.equal(hanging.maxOpen, 3);
    for (const p of paths) assert.ok(hanging.open(p).length <= 2, `${p} stays within its own cap`);
  });

  test('at most WEBHOOK_CONCURRENCY requests are open in all; a freed slot goes to the oldest due', async () => {
    const t = await gatewayWith({
      WEBHOOK_CONCURRENCY: '3',
      WEBHOOK_CONCURRENCY_PER_ACCOUNT: '2',
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '2',
    });
    const hanging = await holding();
    const healthy = await fast();
    const first = await accountWithEndpoints(t, 'First Co', `${hanging.url}/first`);
    const second = await accountWithEndpoints(t, 'Second Co', `${hanging.url}/second`);
    const late = await accountWithEndpoints(t, 'Late Co', healthy.url);

    await emit(t, first, 'first', 2);
    await emit(t, second, 'second', 2);
    await eventually(() => hanging.open().length >= 3);
    await emit(t, late, 'late', 1);

    // Every slot is held; answering one request at a time frees one slot at a time. The second account's
    // older delivery takes the first freed slot, the late event the next one.
    let answered = 0;
    while (healthy.received.length === 0) {
      const oldest = hanging.waiting()[0];
      assert.ok(oldest, 'a held request is open while the late event waits');
      oldest.answer(204);
      answered++;
      await eventually(() => healthy.received.length === 1 || (oldest.closed && hanging.open().length === 3));
    }
    assert.equal(answered, 2, 'the late event went out once two slots had been freed');
    assert.equal(hanging.requests.length, 4, 'all four held deliveries were started by then');
    assert.equal(hanging.maxOpen, 3);
  });

  test('an endpoint that fails gets one request at a time until it succeeds again', async () => {
    const t = await gatewayWith({
      WEBHOOK_CONCURRENCY_PER_ENDPOINT: '4',
      WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms,50ms,50ms',
    });
    const failing = await holding();
    const healthy = await fast();
    const account = await accountWithEndpoints(t, 'Failing Co', `${failing.url}/hooks`);
    const control = await accountWithEndpoints(t, 'Control Co', healthy.url);

    await emit(t, account, 'retried', 3);
    await eventually(() => failing.open().length === 3);
    const firstTries = failing.open();
    for (const request of firstTries) request.answer(503, 'overloaded');
    await eventually(() => firstTries.every((r) => r.closed));
    failing.resetMaxOpen(); // counts from here: a retry may already be open
    // All three retries are due; the control event is younger, so once it has arrived the dispatcher
    // has claimed past them.
    await eventually(async () => {
      const pending = await t.gateway.store.db
        .selectFrom('deliveries')
        .select('next_attempt_at')
        .where('account_id', '=', account)
        .where('status', '=', 'pending')
        .execute();
      return pending.length === 3 && pending.every((d) => d.next_attempt_at < Date.now());
    });
    await emit(t, control, 'control', 1);
    await eventually(() => healthy.received.length === 1);
    await eventually(() => failing.open().length === 1);
    assert.equal(failing.maxOpen, 1, 'one retry at a time while the endpoint is failing');

    // A success ends the failing run: the remaining retries may run side by side again.
    failing.open()[0]!.answer(204);
    await eventually(() => failing.requests.length === 6 && failing.open().length === 2);
    assert.equal(failing.maxOpen, 2);
  });

  test('stopping the gateway ends a hanging request and puts its delivery back untouched', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-stop-'));
    const hanging = await holding();
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const gateway = await buildGateway(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_DEMO_ACCOUNT: 'false',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_TIMEOUT_MS: '60000',
      }),
    );
    const url = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
    const t = { url, gateway, dataDir, close: () => gateway.close() };
    const accountId = await accountWithEndpoints(t, 'Stopped Co', `${hanging.url}/hooks`);
    await emit(t, accountId, 'interrupted', 1);
    await eventually(() => hanging.open().length === 1);

    await gateway.close();
    await eventually(() => hanging.requests[0]!.closed); // the gateway ended the request it was waiting on
    assert.equal(hanging.requests[0]!.answered, false);
    const store = openStore(`sqlite:${path.join(dataDir, 'switchboard.db')}`);
    try {
      const delivery = await store.db.selectFrom('deliveries').selectAll().executeTakeFirstOrThrow();
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempt_count, 0, 'an attempt cut short by the shutdown does not count');
      assert.equal(delivery.locked_until, null, 'the claim is released for the next start or another node');
      const attempts = await store.db.selectFrom('delivery_attempts').select('id').execute();
      assert.equal(attempts.length, 0);
    } finally {
      await store.close();
    }
  });
});
