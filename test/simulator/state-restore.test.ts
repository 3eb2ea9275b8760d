/**
 * The simulator brought back from its state store (src/simulator/state/): a second simulator started on a
 * copy of the first one's records, taken right after its last answer (what a kill -9 at that moment
 * leaves), goes on where the first stopped. The webhooks the first still owed (its receiver refused
 * them) are posted, in their order; a message's status steps still to come are taken up, even when its
 * phone no longer holds it; the user's 24-hour window is open; a template under review is still under
 * review and can be approved and sent; faults in force stay in force; a user's stop of a business's
 * marketing holds, and the 131050 failure still owed for a marketing template sent before the restart is
 * posted.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RECEIVED_KIND } from '../../src/simulator/phone-book.ts';
import { TIMELINE_KIND } from '../../src/simulator/status-timeline.ts';
import { WEBHOOK_KIND } from '../../src/simulator/webhook-poster.ts';
import {
  BUSINESS,
  eventually,
  graphSend,
  memoryStore,
  request,
  startHarness,
  TOKEN,
  USER,
  userSays,
  VERSION,
} from './harness.ts';

const phoneOf = async (base: string) =>
  (await request(`${base}/users/${USER}/messages`)).body.messages as {
    id: string;
    status: string;
    rendered: string;
  }[];

describe('the simulator across a restart', () => {
  test('a second simulator on the first one’s records goes on where it stopped', async () => {
    const first = memoryStore();
    const a = await startHarness({ state: first.store, statusDelayMs: 300, templateReviewDelayMs: 600_000 });
    // The business's endpoint refuses everything: every webhook stays owed.
    a.receiver.failNext(10_000);
    assert.equal((await userSays(a, { text: 'written before the restart' })).status, 202);
    const sent = await graphSend(a, { type: 'text', text: { body: 'sent before the restart' } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const messageId = sent.body.messages[0].id as string;
    const template = await request(`${a.base}/${VERSION}/${BUSINESS}/message_templates`, {
      token: TOKEN,
      body: {
        name: 'order_ready',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'BODY', text: 'Hi {{1}}, your order is ready today.', example: { body_text: [['Jane']] } },
        ],
      },
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    const faults = await request(`${a.base}/faults`, { body: { latencyMs: 1, forMs: 600_000 } });
    assert.equal(faults.status, 200, JSON.stringify(faults.body));
    // Every change an answer reported was written before that answer: this is what a kill leaves.
    const leftBehind = first.snapshot();
    await a.close();
    // The statuses owed are not kept as webhooks: the message's timeline keeps every step whose webhook
    // the receiver has not taken, and brings them back.
    const kept = [...leftBehind.values()];
    assert.ok(!kept.some((r) => r.kind === WEBHOOK_KIND && r.value.includes(messageId)));
    const timeline = kept.find((r) => r.kind === TIMELINE_KIND && r.key === messageId);
    assert.deepEqual(
      (JSON.parse(timeline!.value).steps as { status: string }[]).map((step) => step.status),
      ['sent', 'delivered', 'read'],
    );

    const b = await startHarness({ state: memoryStore(leftBehind).store, statusDelayMs: 20 });
    try {
      // Owed webhooks arrive, the user's message among them, and the message's statuses in their order.
      await eventually(() => b.receiver.received.some((h) => h.body.includes('written before the restart')));
      await eventually(() => statusOf(b.receiver.received, messageId).at(-1) === 'read');
      assert.deepEqual(statusOf(b.receiver.received, messageId), ['sent', 'delivered', 'read']);
      assert.equal((await phoneOf(b.base)).find((m) => m.id === messageId)?.status, 'read');

      const stillFaulty = await request(`${b.base}/faults`);
      assert.deepEqual(stillFaulty.body.faults, { latencyMs: 1 });

      const id = template.body.id as string;
      const pending = await request(`${b.base}/${VERSION}/${id}`, { token: TOKEN });
      assert.equal(pending.body.status, 'PENDING');
      assert.equal((await request(`${b.base}/templates/${id}/review`, { body: {} })).status, 200);
      const templated = await graphSend(b, {
        type: 'template',
        template: {
          name: 'order_ready',
          language: { code: 'en_US' },
          components: [{ type: 'body', parameters: [{ type: 'text', text: 'Jane' }] }],
        },
      });
      assert.equal(templated.status, 200, JSON.stringify(templated.body));

      // The window the user opened before the restart is still open: a free-form send is not failed.
      const after = await graphSend(b, { type: 'text', text: { body: 'sent after the restart' } });
      assert.equal(after.status, 200);
      const afterId = after.body.messages[0].id as string;
      await eventually(() => statusOf(b.receiver.received, afterId).includes('read'));
      assert.ok(!statusOf(b.receiver.received, afterId).includes('failed'));
    } finally {
      await b.close();
    }
  });

  test('a message its phone no longer holds still gets the statuses it was owed', async () => {
    const first = memoryStore();
    const a = await startHarness({ state: first.store, statusDelayMs: 300 });
    a.receiver.failNext(10_000);
    assert.equal((await userSays(a, { text: 'hello' })).status, 202);
    const sent = await graphSend(a, { type: 'text', text: { body: 'sent before the restart' } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const messageId = sent.body.messages[0].id as string;
    const leftBehind = first.snapshot();
    await a.close();
    // The phone forgot it (a phone keeps its last 500 messages): its timeline alone is left.
    const held = [...leftBehind].filter(([, r]) => r.kind === RECEIVED_KIND && r.value.includes(messageId));
    assert.equal(held.length, 1);
    for (const [id] of held) leftBehind.delete(id);

    const b = await startHarness({ state: memoryStore(leftBehind).store, statusDelayMs: 20 });
    try {
      await eventually(() => statusOf(b.receiver.received, messageId).at(-1) === 'read');
      assert.deepEqual(statusOf(b.receiver.received, messageId), ['sent', 'delivered', 'read']);
      assert.equal(
        (await phoneOf(b.base)).find((m) => m.id === messageId),
        undefined,
      );
    } finally {
      await b.close();
    }
  });
});

describe('a stop of marketing across a restart', () => {
  test('the setting, and a 131050 failure still owed, survive the restart', async () => {
    const first = memoryStore();
    const a = await startHarness({ state: first.store, statusDelayMs: 300 });
    const created = await request(`${a.base}/${VERSION}/${BUSINESS}/message_templates`, {
      token: TOKEN,
      body: {
        name: 'summer_sale',
        language: 'en',
        category: 'MARKETING',
        components: [
          {
            type: 'BODY',
            text: 'Hi {{1}}, our summer sale starts today.',
            example: { body_text: [['Jane']] },
          },
        ],
      },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal((await request(`${a.base}/templates/${created.body.id}/review`, { body: {} })).status, 200);
    const stop = await request(`${a.base}/users/${USER}/marketing`, {
      method: 'PUT',
      body: { business: BUSINESS, stopped: true },
    });
    assert.equal(stop.status, 200, JSON.stringify(stop.body));
    // Its failed status is due 300 ms later: the restart comes first.
    const owed = await graphSend(a, saleSend('before'));
    assert.equal(owed.status, 200, JSON.stringify(owed.body));
    const owedId = owed.body.messages[0].id as string;
    const leftBehind = first.snapshot();
    await a.close();

    const b = await startHarness({ state: memoryStore(leftBehind).store, statusDelayMs: 20 });
    try {
      const read = await request(`${b.base}/users/${USER}/marketing?business=${BUSINESS}`);
      assert.deepEqual(read.body, { business: BUSINESS, stopped: true });
      await eventually(() => statusOf(b.receiver.received, owedId).length > 0);
      const after = await graphSend(b, saleSend('after'));
      assert.equal(after.status, 200, JSON.stringify(after.body));
      const afterId = after.body.messages[0].id as string;
      await eventually(() => statusOf(b.receiver.received, afterId).length > 0);
      assert.deepEqual(statusOf(b.receiver.received, owedId), ['failed']);
      assert.deepEqual(statusOf(b.receiver.received, afterId), ['failed']);
      const codes = b.receiver.received.flatMap((h) =>
        (h.json.entry[0].changes[0].value.statuses ?? []).map((s: any) => s.errors[0].code),
      );
      assert.deepEqual(codes, [131050, 131050]);
      const ids = (await phoneOf(b.base)).map((m) => m.id);
      assert.ok(!ids.includes(owedId) && !ids.includes(afterId), 'the phone shows neither');
    } finally {
      await b.close();
    }
  });
});

function saleSend(callback: string) {
  return {
    type: 'template',
    biz_opaque_callback_data: callback,
    template: {
      name: 'summer_sale',
      language: { code: 'en' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Jane' }] }],
    },
  };
}

function statusOf(hooks: { json: any }[], id: string): string[] {
  return hooks
    .flatMap((h) => h.json.entry.flatMap((e: any) => e.changes.map((c: any) => c.value.statuses ?? [])))
    .flat()
    .filter((s: any) => s.id === id)
    .map((s: any) => s.status);
}
