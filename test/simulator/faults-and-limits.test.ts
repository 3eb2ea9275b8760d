/**
 * The simulator's fault controls (`/simulator/faults`) and Meta's limits (docs/cloud-api.md §7): per-number
 * throughput (130429) and the business–user pair rate (131056), over real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, graphSend, type Harness, openWindow, request, startHarness, USER } from './harness.ts';

const text = (body: string) => ({ type: 'text', text: { body } });

describe('simulator fault controls', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await openWindow(h);
  });
  after(() => h.close());

  test('bad bodies are refused with the field and the rule named', async () => {
    const cases: [unknown, RegExp][] = [
      [[], /the body must be a JSON object/],
      [{}, /no fault given/],
      [{ latencyMs: -1 }, /`latencyMs` must be a whole number of milliseconds from 0 to 600000/],
      [{ latencyMs: 1.5 }, /`latencyMs` must be a whole number/],
      [{ status5xx: 2 }, /`status5xx` must be a fraction from 0 to 1, or true/],
      [{ status5xx: '0.5' }, /`status5xx` must be a fraction/],
      [{ timeout: 'yes' }, /`timeout` must be true or false/],
      [{ throughput: 1 }, /`throughput` must be true or false/],
      [{ timeout: true, forMs: 0 }, /`forMs` must be a whole number of milliseconds from 1 to/],
      [{ slow: true }, /`slow` is not a fault; use latencyMs, status5xx, timeout, throughput, forMs/],
      [{ status5xx: 0, forMs: 100 }, /no fault given/],
    ];
    for (const [body, message] of cases) {
      const r = await request(`${h.base}/faults`, { method: 'POST', body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, message, JSON.stringify(body));
    }
    const unreadable = await request(`${h.base}/faults`, {
      method: 'POST',
      body: '{"timeout":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(unreadable.status, 400);
    assert.match(unreadable.body.error.message, /the body could not be read/);
    assert.deepEqual((await request(`${h.base}/faults`)).body, { faults: {}, until: null, held: 0 });
  });

  test('faults are shown, replace each other, and end when cleared', async () => {
    const set = await request(`${h.base}/faults`, {
      method: 'POST',
      body: { status5xx: 0.25, latencyMs: 5 },
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body, { faults: { latencyMs: 5, status5xx: 0.25 }, until: null, held: 0 });
    const replaced = await request(`${h.base}/faults`, {
      method: 'POST',
      body: { throughput: true, forMs: 60_000 },
    });
    assert.deepEqual(replaced.body.faults, { throughput: true });
    assert.ok(Date.parse(replaced.body.until) > Date.now());

    const throttled = await graphSend(h, text('not now'));
    assert.equal(throttled.status, 429);
    assert.equal(throttled.body.error.code, 130429);
    assert.equal(throttled.body.error.message, '(#130429) Rate limit hit');

    const cleared = await request(`${h.base}/faults`, { method: 'DELETE' });
    assert.deepEqual(cleared.body, { faults: {}, until: null, held: 0 });
    assert.equal((await graphSend(h, text('now'))).status, 200);
  });

  test('status5xx answers 503 with a Graph error that says nothing was taken', async () => {
    await request(`${h.base}/faults`, { method: 'POST', body: { status5xx: true } });
    try {
      const r = await graphSend(h, text('down'));
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, 131016);
      assert.match(r.body.error.error_data.details, /was not taken/);
    } finally {
      await request(`${h.base}/faults`, { method: 'DELETE' });
    }
  });

  test('a held send is handled when the timeout fault clears', async () => {
    await request(`${h.base}/faults`, { method: 'POST', body: { timeout: true } });
    const pending = graphSend(h, text('held'));
    // The simulator says it holds it: proof it was held, with no guess at how long to wait.
    await eventually(async () => (await request(`${h.base}/faults`)).body.held === 1);
    await request(`${h.base}/faults`, { method: 'DELETE' });
    const r = await pending;
    assert.equal(r.status, 200);
    assert.match(r.body.messages[0].id, /^wamid\./);
  });
});

describe('simulator limits', () => {
  test('per-number throughput: beyond the rate, 130429 with HTTP 429', async () => {
    const h = await startHarness({ maxSendsPerSecond: 5, pairBurst: 0 });
    try {
      await openWindow(h);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => graphSend(h, text(`fast ${i}`))),
      );
      const ok = answers.filter((r) => r.status === 200);
      const limited = answers.filter((r) => r.status === 429);
      assert.equal(ok.length + limited.length, 12);
      assert.ok(ok.length >= 5, `a second's worth goes through (${ok.length})`);
      assert.ok(limited.length >= 1);
      for (const r of limited) assert.equal(r.body.error.code, 130429);
      const phone = await request(`${h.base}/users/${USER}/messages`);
      assert.equal(phone.body.messages.filter((m: any) => m.rendered.startsWith('fast ')).length, ok.length);
    } finally {
      await h.close();
    }
  });

  test('pair rate: one user from one number, beyond the burst, 131056; other users are not affected', async () => {
    const h = await startHarness({ pairBurst: 3 });
    try {
      await openWindow(h);
      for (let i = 0; i < 3; i++) assert.equal((await graphSend(h, text(`pair ${i}`))).status, 200);
      const limited = await graphSend(h, text('pair 3'));
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 131056);
      assert.match(limited.body.error.error_data.details, /same phone number in a short period/);
      const other = '254712399999';
      await openWindow(h, other);
      assert.equal((await graphSend(h, text('someone else'), other)).status, 200);
    } finally {
      await h.close();
    }
  });

  test('a send held by a timeout fault is dropped unanswered when the simulator closes', async () => {
    const h = await startHarness();
    await openWindow(h);
    await request(`${h.base}/faults`, { method: 'POST', body: { timeout: true } });
    const pending = graphSend(h, text('never answered')).then(
      () => 'answered',
      () => 'connection closed',
    );
    // Closed once the send is held, not after a guess at how long it takes to arrive.
    await eventually(async () => (await request(`${h.base}/faults`)).body.held === 1);
    await h.close();
    assert.equal(await pending, 'connection closed');
  });
});
