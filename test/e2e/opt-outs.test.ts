/**
 * Opting out of a business number's marketing, end to end (docs/opt-outs.md): a user texts STOP to the
 * account's own number through the simulated network; the account hears `contact.opted_out` (a real local
 * receiver); a marketing template to them is refused with a 422 that says when and how, while a utility
 * template still goes; START opts them back in. The network's 131050 on a marketing message (a signed
 * status webhook) opts its user out too. A keyword delivered twice records one opt-out. A user's stop or
 * resume of the number's marketing in WhatsApp's settings (`user_preferences`) opts them out or back in;
 * a UTILITY template the network moves to MARKETING (`template_category_update`) is refused to them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import {
  envelope,
  messagesChange,
  postNetworkWebhook,
  storedInbound,
  textMessage,
  unixSeconds,
} from '../support/network-envelopes.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const NUMBER = '14155550123';
const OWN_NUMBER_CHANGE = { metadata: { display_phone_number: NUMBER, phone_number_id: NUMBER } };

describe("opt-outs of a number's marketing", () => {
  let t: TestGateway;
  let receiver: Receiver;
  let a: TestAccount;

  const api = (method: string, route: string, body?: unknown) =>
    call(t.url, method, route, { key: a.apiKey, ...(body !== undefined ? { body } : {}) });
  const sendTemplate = (messageId: string, to: string, name: string) =>
    api('POST', '/api/v1/msg/template', {
      messageId,
      from: `+${NUMBER}`,
      to: `+${to}`,
      template: { name, language: 'en_US' },
    });
  const events = (type: string, user: string) =>
    receiver.received.filter((r) => r.json.type === type && r.json.data.from === user);

  async function approvedTemplate(name: string, category: string) {
    const created = await api('POST', `/api/v1/template/${NUMBER}`, {
      name,
      language: 'en_US',
      category,
      component: { body: { text: `The ${name.replace('_', ' ')} is here for you.` } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await call(t.url, 'POST', `/simulator/templates/${created.body.data.id}/review`, { body: {} });
    await eventually(async () => {
      const list = await api('GET', `/api/v1/template/${NUMBER}?name=${name}`);
      return list.body.data.data[0]?.status === 'APPROVED';
    });
    return created.body.data.id as string;
  }

  before(async () => {
    t = await startGateway({
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SIMULATOR_TEMPLATE_REVIEW_MS: '600000' },
    });
    receiver = await startReceiver();
    a = await createAccount(t, 'Offers Co');
    await addSimulatedNumber(t, a.accountId, NUMBER);
    const hook = await api('POST', '/api/v1/webhooks', {
      url: receiver.url,
      events: ['contact.opted_out', 'contact.opted_in', 'template.category'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    await approvedTemplate('weekly_offer', 'MARKETING');
    await approvedTemplate('order_ready', 'UTILITY');
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('STOP opts out of marketing only, said in an event; START opts back in', async () => {
    const user = '447911200001';
    assert.equal((await sendTemplate('offer-1', user, 'weekly_offer')).status, 200);
    await userSays(t, user, NUMBER, { text: ' Stop. ' });
    const [out] = await eventually(() => {
      const found = events('contact.opted_out', user);
      return found.length ? found : undefined;
    });
    assert.deepEqual(Object.keys(out!.json.data), ['from', 'to', 'source', 'keyword', 'timestamp']);
    assert.equal(out!.json.data.to, NUMBER);
    assert.equal(out!.json.data.source, 'keyword');
    assert.equal(out!.json.data.keyword, 'STOP');

    const refused = await sendTemplate('offer-2', user, 'weekly_offer');
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(
      refused.body.message,
      /^\+447911200001 opted out of marketing from \+14155550123 on \d{4}-\d\d-\d\dT[\d:.]+Z by replying "STOP"/,
    );
    assert.equal((await sendTemplate('ready-1', user, 'order_ready')).status, 200, 'utility still goes');

    await userSays(t, user, NUMBER, { text: 'START' });
    await eventually(() => events('contact.opted_in', user).length === 1);
    assert.equal((await sendTemplate('offer-3', user, 'weekly_offer')).status, 200);
  });

  test('a keyword inside a sentence is no opt-out', async () => {
    const user = '447911200002';
    const said = await userSays(t, user, NUMBER, { text: 'please do not stop the offers' });
    // Handled (published) means every step for the message ran, the keyword check included.
    await eventually(async () => (await storedInbound(t.gateway.store.db, said.id))?.handled_at != null);
    assert.equal(await t.gateway.repos.optOuts.find(a.accountId, NUMBER, user), undefined);
    assert.equal((await sendTemplate('offer-6', user, 'weekly_offer')).status, 200);
  });

  test('the network reporting 131050 on a marketing message opts its user out', async () => {
    const user = '447911200003';
    const sent = await sendTemplate('offer-4', user, 'weekly_offer');
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const failed = {
      id: sent.body.data.waId,
      status: 'failed',
      timestamp: unixSeconds(),
      recipient_id: user,
      errors: [
        {
          code: 131050,
          title:
            'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
        },
      ],
    };
    const body = envelope([[messagesChange([], [], { ...OWN_NUMBER_CHANGE, statuses: [failed] })]]);
    assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
    const [out] = await eventually(() => {
      const found = events('contact.opted_out', user);
      return found.length ? found : undefined;
    });
    assert.equal(out!.json.data.source, 'network');
    assert.equal(out!.json.data.keyword, null);
    const refused = await sendTemplate('offer-5', user, 'weekly_offer');
    assert.equal(refused.status, 422);
    assert.match(refused.body.message, /as the network reported \(131050/);
  });

  test("stopping the number's marketing in WhatsApp opts out; resuming there opts back in", async () => {
    const user = '447911200005';
    const setting = (stopped: boolean) =>
      call(t.url, 'PUT', `/simulator/users/${user}/marketing`, { body: { business: NUMBER, stopped } });
    // The phone's "Stop promotions" toggle: the network posts a `user_preferences` change (stop).
    assert.equal((await setting(true)).status, 200);
    const [out] = await eventually(() => {
      const found = events('contact.opted_out', user);
      return found.length ? found : undefined;
    });
    assert.deepEqual(out!.json.data, {
      from: user,
      to: NUMBER,
      source: 'preference',
      keyword: null,
      timestamp: out!.json.data.timestamp,
    });
    const refused = await sendTemplate('offer-7', user, 'weekly_offer');
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(
      refused.body.message,
      /by stopping its marketing messages in WhatsApp; .* opt in again \(START, or resuming them in WhatsApp\)$/,
    );
    assert.equal((await sendTemplate('ready-2', user, 'order_ready')).status, 200, 'utility still goes');

    // The same setting again changes nothing, so the network says nothing; resuming opts back in.
    assert.equal((await setting(true)).status, 200);
    assert.equal((await setting(false)).status, 200);
    const [back] = await eventually(() => {
      const found = events('contact.opted_in', user);
      return found.length ? found : undefined;
    });
    assert.equal(back!.json.data.source, 'preference');
    assert.equal(events('contact.opted_out', user).length, 1);
    assert.equal(await t.gateway.repos.optOuts.find(a.accountId, NUMBER, user), undefined);
    assert.equal((await sendTemplate('offer-8', user, 'weekly_offer')).status, 200);
  });

  test('a marketing preference the network delivers twice changes it once; one for the sandbox changes nothing', async () => {
    const user = '447911200006';
    const item = {
      wa_id: user,
      detail: 'User requested to stop marketing messages',
      category: 'marketing_messages',
      value: 'stop',
      timestamp: Math.floor(Date.now() / 1000),
    };
    const change = (metadata: Record<string, unknown>) => ({
      field: 'user_preferences',
      value: {
        messaging_product: 'whatsapp',
        metadata,
        contacts: [{ wa_id: user }],
        user_preferences: [item],
      },
    });
    const body = {
      object: 'whatsapp_business_account',
      entry: [{ id: NUMBER, changes: [change(OWN_NUMBER_CHANGE.metadata)] }],
    };
    assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
    assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
    // Answered 200 only once handled: the opt-out is there now, recorded once.
    assert.equal((await t.gateway.repos.optOuts.find(a.accountId, NUMBER, user))?.source, 'preference');
    await eventually(() => events('contact.opted_out', user).length === 1);

    const sandbox = {
      display_phone_number: '14155550100',
      phone_number_id: t.gateway.config.sandbox.phoneNumberId,
    };
    const other = '447911200007';
    const forSandbox = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '14155550100',
          changes: [
            {
              ...change(sandbox),
              value: { ...change(sandbox).value, user_preferences: [{ ...item, wa_id: other }] },
            },
          ],
        },
      ],
    };
    assert.equal((await postNetworkWebhook(t.url, forSandbox)).status, 200);
    assert.equal(await t.gateway.repos.optOuts.find(a.accountId, '14155550100', other), undefined);
    assert.equal(events('contact.opted_out', user).length, 1);
  });

  test('a UTILITY template the network moves to MARKETING is refused to users who opted out', async () => {
    const user = '447911200008';
    const id = await approvedTemplate('delivery_note', 'UTILITY');
    await userSays(t, user, NUMBER, { text: 'STOP' });
    await eventually(() => events('contact.opted_out', user).length === 1);
    assert.equal((await sendTemplate('note-1', user, 'delivery_note')).status, 200, 'utility goes');

    const move = (notice: boolean) =>
      call(t.url, 'POST', `/simulator/templates/${id}/category`, { body: { category: 'MARKETING', notice } });
    // Meta's notice a day ahead changes nothing yet; then the change itself (posted in that order).
    assert.equal((await move(true)).status, 200);
    assert.equal((await move(false)).status, 200);
    const moved = () =>
      receiver.received.filter((r) => r.json.type === 'template.category' && r.json.data.id === id);
    const [event] = await eventually(() => moved().length > 0 && moved());
    assert.deepEqual(event!.json.data, {
      id,
      name: 'delivery_note',
      language: 'en_US',
      category: 'MARKETING',
      previousCategory: 'UTILITY',
    });
    const listed = await api('GET', `/api/v1/template/${NUMBER}?name=delivery_note`);
    assert.equal(listed.body.data.data[0].category, 'MARKETING');
    const refused = await sendTemplate('note-2', user, 'delivery_note');
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.match(refused.body.message, /opted out of marketing/);
    assert.equal(moved().length, 1, 'one event, for the change made');
  });

  test("the account's opt-outs are listed newest first, as their events said; bad filters are a 400", async () => {
    const user = '447911200009';
    await userSays(t, user, NUMBER, { text: 'UNSUBSCRIBE' });
    await eventually(() => events('contact.opted_out', user).length === 1);
    const listed = await api('GET', `/api/v1/opt-outs?number=%2B${NUMBER}&user=%2B${user}`);
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(listed.body.data, {
      optOuts: [events('contact.opted_out', user)[0]!.json.data],
      page: 1,
      perPage: 50,
      total: 1,
    });
    const all = await api('GET', '/api/v1/opt-outs?per_page=200');
    const times = all.body.data.optOuts.map((o: { timestamp: string }) => o.timestamp);
    assert.ok(
      all.body.data.optOuts.some((o: { from: string }) => o.from === user),
      JSON.stringify(all.body.data),
    );
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    for (const [query, field] of [
      ['number=not-a-number', 'number'],
      ['user=someone', 'user'],
      ['per_page=201', 'per_page'],
      ['sort=asc', 'sort'],
    ] as const) {
      const refused = await api('GET', `/api/v1/opt-outs?${query}`);
      assert.equal(refused.status, 400, query);
      assert.match(JSON.stringify(refused.body), new RegExp(field), query);
    }
    const stranger = await createAccount(t, 'Stranger Co');
    const theirs = await call(t.url, 'GET', '/api/v1/opt-outs', { key: stranger.apiKey });
    assert.deepEqual(theirs.body.data.optOuts, [], "another account's opt-outs are not listed");
  });

  test('a STOP the network delivers twice opts out once', async () => {
    const user = '447911200004';
    const stop = envelope([
      [
        messagesChange(
          [textMessage(user, 'wamid.OPTOUT-TWICE', 'STOP')],
          [{ profile: { name: 'Ana' }, wa_id: user }],
          OWN_NUMBER_CHANGE,
        ),
      ],
    ]);
    assert.equal((await postNetworkWebhook(t.url, stop)).status, 200);
    assert.equal((await postNetworkWebhook(t.url, stop)).status, 200);
    await eventually(() => events('contact.opted_out', user).length === 1);
    const stored = await t.gateway.repos.optOuts.find(a.accountId, NUMBER, user);
    assert.equal(stored?.keyword, 'STOP');
    assert.equal(events('contact.opted_out', user).length, 1);
  });
});
