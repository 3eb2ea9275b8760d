/**
 * Templates through HTTP (operations 13–16 and the template send): create → the network's review →
 * listed APPROVED in the documented shape → sent to a user who never wrote → the filled-in text on the
 * virtual phone; a rejection with its reason; Meta's edit rules; deletion; header media; and isolation
 * between accounts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { sandboxNetworkName } from '../../src/domain/templates/sandbox-names.ts';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { postNetworkWebhook } from '../support/network-envelopes.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const NUMBER = '14155550123';
const NEVER_WROTE = '447911123456';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const orderUpdate = (name = 'order_update', language = 'en_US') => ({
  name,
  language,
  category: 'UTILITY',
  component: {
    header: { format: 'TEXT', text: 'Order {{1}}', example: '#4521' },
    body: {
      text: 'Hi {{1}}, your order ships {{2}}. Thank you for shopping with us.',
      examples: ['Jane', 'today'],
    },
    footer: { text: 'Reply STOP to opt out' },
    buttons: [
      { type: 'QUICK_REPLY', text: 'Track order' },
      {
        type: 'URL',
        text: 'Open',
        url: 'https://shop.example.com/o/{{1}}',
        example: 'https://shop.example.com/o/4521',
      },
    ],
  },
});

describe('templates', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let a: TestAccount;
  let b: TestAccount;

  const api = (account: TestAccount, method: string, route: string, body?: unknown) =>
    call(t.url, method, route, { key: account.apiKey, ...(body !== undefined ? { body } : {}) });

  /** The template's review is decided now (the simulator's control), and its outcome has reached the gateway. */
  async function approved(account: TestAccount, id: string) {
    const decided = await call(t.url, 'POST', `/simulator/templates/${id}/review`, { body: {} });
    assert.ok(decided.status === 200 || decided.status === 409, JSON.stringify(decided.body));
    return eventually(async () => {
      const list = await api(account, 'GET', `/api/v1/template/${NUMBER}`);
      const found = list.body.data.data.find((x: { id: string }) => x.id === id);
      return found && found.status !== 'PENDING' ? found : undefined;
    });
  }

  before(async () => {
    t = await startGateway({
      // Reviews wait for the simulator's control (approved() below): a template is PENDING until then.
      env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SIMULATOR_TEMPLATE_REVIEW_MS: '600000' },
    });
    receiver = await startReceiver();
    a = await createAccount(t, 'Shop A');
    b = await createAccount(t, 'Shop B');
    await addSimulatedNumber(t, a.accountId, NUMBER);
    await api(a, 'POST', '/api/v1/webhooks', { url: receiver.url, events: ['template.status'] });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('create → approved → listed in the documented shape → sent to a user who never wrote', async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate());
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.status, 'success');
    assert.equal(created.body.data.status, 'PENDING');
    const id = created.body.data.id;
    assert.match(id, /^\d+$/);

    const listed = await approved(a, id);
    assert.equal(listed.status, 'APPROVED');
    assert.deepEqual(Object.keys(listed), [
      'name',
      'language',
      'category',
      'status',
      'id',
      'createdAt',
      'rejected_reason',
      'quality_score',
      'components',
    ]);
    assert.equal(listed.rejected_reason, 'NONE');
    assert.match(listed.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    assert.equal(listed.quality_score.score, 'UNKNOWN');
    assert.match(listed.quality_score.date, /^\d{10}$/);
    assert.deepEqual(listed.components, [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#4521'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order ships {{2}}. Thank you for shopping with us.',
        example: { body_text: [['Jane', 'today']] },
      },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Track order' },
          {
            type: 'URL',
            text: 'Open',
            url: 'https://shop.example.com/o/{{1}}',
            example: ['https://shop.example.com/o/4521'],
          },
        ],
      },
    ]);
    const list = await api(a, 'GET', `/api/v1/template/${NUMBER}?status=APPROVED&name=order_update`);
    assert.deepEqual(Object.keys(list.body), ['timestamp', 'data', 'status', 'message', 'errors']);
    assert.equal(list.body.timestamp, null);
    assert.equal(list.body.message, 'success');
    assert.equal(list.body.data.data.length, 1);

    const event = await eventually(() =>
      receiver.received.find((r) => r.json.type === 'template.status' && r.json.data.id === id),
    );
    assert.deepEqual(event.json.data, {
      id,
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      reason: 'NONE',
    });

    const sent = await api(a, 'POST', '/api/v1/msg/template', {
      messageId: 'tpl-1',
      from: `+${NUMBER}`,
      to: `+${NEVER_WROTE}`,
      template: {
        name: 'order_update',
        language: 'en_US',
        components: {
          header: { type: 'TEXT', parameter: '#9911' },
          body: { placeholders: ['Amina', 'tomorrow'] },
          buttons: [{ index: 1, parameter: '9911' }],
        },
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.data.status, 'SENT');
    const phone = await receivedBy(t, NEVER_WROTE);
    assert.equal(phone.length, 1);
    assert.equal(phone[0].type, 'template');
    assert.match(phone[0].rendered, /Order #9911/);
    assert.match(phone[0].rendered, /Hi Amina, your order ships tomorrow\./);
    assert.match(phone[0].rendered, /Reply STOP to opt out/);
    assert.doesNotMatch(phone[0].rendered, /\{\{/);

    // A free-form message to the same user is still refused: a template does not open the user's window.
    const text = await api(a, 'POST', '/api/v1/msg/message/text', {
      messageId: 'tpl-1-text',
      from: `+${NUMBER}`,
      to: `+${NEVER_WROTE}`,
      message: 'hello',
    });
    assert.equal(text.status, 422);
  });

  test('a text value with a new line, a tab or five spaces in a row is a 400 naming it', async () => {
    const components = {
      header: { type: 'TEXT', parameter: '#9911' },
      body: { placeholders: ['Amina', 'tomorrow'] },
      buttons: [{ index: 1, parameter: '9911' }],
    };
    const cases: [string, unknown, string][] = [
      [
        'new line',
        { ...components, body: { placeholders: ['Amina\nWanjiru', 'x'] } },
        'body.placeholders[0]',
      ],
      ['tab', { ...components, body: { parameters: ['Amina', 'to\tmorrow'] } }, 'body.parameters[1]'],
      ['spaces', { ...components, header: { type: 'TEXT', parameter: '#99     11' } }, 'header.parameter'],
    ];
    for (const [what, given, field] of cases) {
      const r = await api(a, 'POST', '/api/v1/msg/template', {
        messageId: `tpl-lines-${what}`,
        from: NUMBER,
        to: NEVER_WROTE,
        template: { name: 'order_update', language: 'en_US', components: given },
      });
      assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
      assert.equal(
        r.body.message,
        `\`template.components.${field}\` may hold no new line or tab and at most four spaces in a row (the network refuses such a parameter)`,
      );
    }
  });

  test("the network's quality rating of a template is what the listing shows", async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, {
      name: 'rated_notice',
      language: 'en_US',
      category: 'UTILITY',
      component: { body: { text: 'Your appointment is confirmed for tomorrow.' } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.data.id;
    assert.equal((await approved(a, id)).quality_score.score, 'UNKNOWN');
    const rated = await call(t.url, 'POST', `/simulator/templates/${id}/quality`, {
      body: { score: 'YELLOW' },
    });
    assert.deepEqual(rated.body, { id, score: 'YELLOW' });
    const listed = await eventually(async () => {
      const list = await api(a, 'GET', `/api/v1/template/${NUMBER}?name=rated_notice`);
      const [found] = list.body.data.data;
      return found.quality_score.score === 'YELLOW' ? found : undefined;
    });
    assert.match(listed.quality_score.date, /^\d{10}$/);
    assert.equal(listed.status, 'APPROVED', 'a rating alone changes no status');
  });

  test('a template the network flags or locks is still sent; a paused one is refused until reinstated', async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, {
      name: 'watched_notice',
      language: 'en_US',
      category: 'UTILITY',
      component: { body: { text: 'Your parcel is on its way.' } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id: string = created.body.data.id;
    assert.equal((await approved(a, id)).status, 'APPROVED');
    let sends = 0;
    const statusAfter = async (event: string) => {
      const change = {
        field: 'message_template_status_update',
        value: {
          event,
          message_template_id: Number(id),
          message_template_name: sandboxNetworkName(a.accountId, 'watched_notice'),
          message_template_language: 'en_US',
          reason: 'NONE',
        },
      };
      const body = {
        object: 'whatsapp_business_account',
        entry: [{ id: NUMBER, time: Math.floor(Date.now() / 1000), changes: [change] }],
      };
      assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
      const listed = await api(a, 'GET', `/api/v1/template/${NUMBER}?name=watched_notice`);
      const send = await api(a, 'POST', '/api/v1/msg/template', {
        messageId: `tpl-watched-${++sends}`,
        from: NUMBER,
        to: NEVER_WROTE,
        template: { name: 'watched_notice', language: 'en_US' },
      });
      assert.ok(send.status === 200 || send.status === 422, JSON.stringify(send.body));
      return {
        listed: listed.body.data.data[0].status,
        send: send.status === 200 ? 'sent' : send.body.message,
      };
    };
    // Meta: FLAGGED is a warning (negative feedback, a pause may follow); LOCKED stops edits only.
    assert.deepEqual(await statusAfter('FLAGGED'), { listed: 'FLAGGED', send: 'sent' });
    assert.deepEqual(await statusAfter('LOCKED'), { listed: 'LOCKED', send: 'sent' });
    const paused = await statusAfter('PAUSED');
    assert.equal(paused.listed, 'PAUSED');
    assert.match(paused.send, /is PAUSED; only APPROVED templates can be sent/);
    assert.deepEqual(await statusAfter('REINSTATED'), { listed: 'APPROVED', send: 'sent' });
  });

  test('the network rejects a body with two variables side by side, with its reason', async () => {
    const body = orderUpdate('starts_with_variable');
    body.component.body = { text: 'Your order {{1}}{{2}} is packed, thank you.', examples: ['45', '21'] };
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const listed = await approved(a, created.body.data.id);
    assert.equal(listed.status, 'REJECTED');
    assert.equal(listed.rejected_reason, 'INVALID_FORMAT');
    const event = await eventually(() =>
      receiver.received.find(
        (r) => r.json.type === 'template.status' && r.json.data.id === created.body.data.id,
      ),
    );
    assert.equal(event.json.data.reason, 'INVALID_FORMAT');
    const send = await api(a, 'POST', '/api/v1/msg/template', {
      messageId: 'tpl-rejected',
      from: NUMBER,
      to: NEVER_WROTE,
      template: {
        name: 'starts_with_variable',
        language: 'en_US',
        components: { body: { placeholders: ['1', '2'] } },
      },
    });
    assert.equal(send.status, 422);
    assert.match(send.body.message, /REJECTED; only APPROVED templates can be sent/);
  });

  test('every create rule, accepted at its limit and refused past it', async () => {
    const variant = (change: (body: any) => void) => {
      const body: any = structuredClone(orderUpdate(`edge_${Math.random().toString(36).slice(2, 10)}`));
      change(body);
      return body;
    };
    const cases: Array<[string, (body: any) => void, number, RegExp?]> = [
      ['name of 512 characters', (x) => (x.name = 'n'.repeat(512)), 200],
      ['name of 513 characters', (x) => (x.name = 'n'.repeat(513)), 400, /`name` must be 1 to 512/],
      ['name with a capital', (x) => (x.name = 'Order'), 400, /lowercase/],
      ['name with a space', (x) => (x.name = 'order update'), 400, /`name`/],
      ['unknown language', (x) => (x.language = 'en_XX'), 400, /`language` "en_XX"/],
      ['category in lower case', (x) => (x.category = 'marketing'), 200],
      ['unknown category', (x) => (x.category = 'PROMO'), 400, /`category` must be one of/],
      [
        'body starting with a variable',
        (x) => (x.component.body = { text: '{{1}} is your order, thanks.', examples: ['4521'] }),
        400,
        /`component\.body\.text` must not start or end with a variable/,
      ],
      [
        'body ending with a variable',
        (x) => (x.component.body = { text: 'Your order number is {{1}} ', examples: ['4521'] }),
        400,
        /`component\.body\.text` must not start or end with a variable/,
      ],
      ['both component spellings', (x) => (x.components = x.component), 400, /two spellings/],
      [
        'components spelling',
        (x) => {
          x.components = x.component;
          delete x.component;
        },
        200,
      ],
      ['header text of 60', (x) => (x.component.header = { format: 'TEXT', text: 'h'.repeat(60) }), 200],
      [
        'header text of 61',
        (x) => (x.component.header = { format: 'TEXT', text: 'h'.repeat(61) }),
        400,
        /`component\.header\.text` may be at most 60/,
      ],
      [
        'two header variables',
        (x) => (x.component.header = { format: 'TEXT', text: 'A {{1}} {{2}}', example: 'x' }),
        400,
        /one variable/,
      ],
      [
        'header variable without example',
        (x) => delete x.component.header.example,
        400,
        /`component\.header\.example` is required/,
      ],
      [
        'header example without variable',
        (x) => (x.component.header = { format: 'TEXT', text: 'Hi', example: 'x' }),
        400,
        /only for a header text with a variable/,
      ],
      [
        'header with a new line',
        (x) => (x.component.header = { format: 'TEXT', text: 'a\nb' }),
        400,
        /one plain line/,
      ],
      [
        'unknown header format',
        (x) => (x.component.header = { format: 'GIF', example: 'h' }),
        400,
        /`component\.header\.format`/,
      ],
      [
        'media header without a handle',
        (x) => (x.component.header = { format: 'IMAGE' }),
        400,
        /`component\.header\.example` is required/,
      ],
      [
        'media header with an unknown handle',
        (x) => (x.component.header = { format: 'IMAGE', example: '4::nope' }),
        400,
        /handle returned by POST/,
      ],
      ['body of 1024', (x) => (x.component.body = { text: `Hello ${'b'.repeat(1018)}` }), 200],
      [
        'body of 1025',
        (x) => (x.component.body = { text: `Hello ${'b'.repeat(1019)}` }),
        400,
        /`component\.body\.text` may be at most 1024/,
      ],
      ['no body', (x) => delete x.component.body, 400, /`component\.body\.text` is required/],
      [
        'variables out of order',
        (x) => (x.component.body = { text: 'Hi {{2}} and {{1}} ok', examples: ['a', 'b'] }),
        400,
        /\{\{2\}\} before \{\{1\}\}/,
      ],
      [
        'named variable',
        (x) => (x.component.body = { text: 'Hi {{name}} ok', examples: ['a'] }),
        400,
        /numbered/,
      ],
      ['missing example', (x) => (x.component.body.examples = ['Jane']), 400, /2 expected, 1 given/],
      ['extra example', (x) => (x.component.body.examples = ['a', 'b', 'c']), 400, /2 expected, 3 given/],
      ['footer of 60', (x) => (x.component.footer = { text: 'f'.repeat(60) }), 200],
      [
        'footer of 61',
        (x) => (x.component.footer = { text: 'f'.repeat(61) }),
        400,
        /`component\.footer\.text` may be at most 60/,
      ],
      [
        'footer with a variable',
        (x) => (x.component.footer = { text: 'Bye {{1}}' }),
        400,
        /may not contain variables/,
      ],
      ['button text of 25', (x) => (x.component.buttons[0].text = 't'.repeat(25)), 200],
      [
        'button text of 26',
        (x) => (x.component.buttons[0].text = 't'.repeat(26)),
        400,
        /`component\.buttons\[0\]\.text` may be at most 25/,
      ],
      [
        '10 buttons',
        (x) =>
          (x.component.buttons = Array.from({ length: 10 }, (_, i) => ({
            type: 'QUICK_REPLY',
            text: `Q${i}`,
          }))),
        200,
      ],
      [
        '11 buttons',
        (x) =>
          (x.component.buttons = Array.from({ length: 11 }, (_, i) => ({
            type: 'QUICK_REPLY',
            text: `Q${i}`,
          }))),
        400,
        /1 to 10 buttons/,
      ],
      [
        '3 URL buttons',
        (x) =>
          (x.component.buttons = [1, 2, 3].map((i) => ({
            type: 'URL',
            text: `U${i}`,
            url: 'https://a.example',
          }))),
        400,
        /at most 2 URL buttons/,
      ],
      [
        '2 phone buttons',
        (x) =>
          (x.component.buttons = [1, 2].map((i) => ({
            type: 'PHONE_NUMBER',
            text: `P${i}`,
            phoneNumber: '+14155550100',
          }))),
        400,
        /at most 1 PHONE_NUMBER button/,
      ],
      [
        'phone button',
        (x) =>
          (x.component.buttons = [{ type: 'PHONE_NUMBER', text: 'Call', phoneNumber: '+1 415 555 0100' }]),
        200,
      ],
      [
        'phone button without number',
        (x) => (x.component.buttons = [{ type: 'PHONE_NUMBER', text: 'Call' }]),
        400,
        /`component\.buttons\[0\]\.phoneNumber` is required/,
      ],
      [
        'URL button without url',
        (x) => (x.component.buttons = [{ type: 'URL', text: 'Open' }]),
        400,
        /`component\.buttons\[0\]\.url` is required/,
      ],
      [
        'URL variable in the middle',
        (x) =>
          (x.component.buttons = [
            { type: 'URL', text: 'Open', url: 'https://a.example/{{1}}/x', example: 'https://a.example/1/x' },
          ]),
        400,
        /only at its very end/,
      ],
      [
        'URL variable without example',
        (x) => (x.component.buttons = [{ type: 'URL', text: 'Open', url: 'https://a.example/{{1}}' }]),
        400,
        /`component\.buttons\[0\]\.example` is required/,
      ],
      [
        'quick replies split around a URL',
        (x) =>
          (x.component.buttons = [
            { type: 'QUICK_REPLY', text: 'A' },
            { type: 'URL', text: 'U', url: 'https://a.example' },
            { type: 'QUICK_REPLY', text: 'B' },
          ]),
        400,
        /grouped together/,
      ],
      [
        'repeated button text',
        (x) =>
          (x.component.buttons = [
            { type: 'QUICK_REPLY', text: 'A' },
            { type: 'QUICK_REPLY', text: 'A' },
          ]),
        400,
        /labels must differ/,
      ],
      ['unknown field', (x) => (x.component.body.color = 'red'), 400],
    ];
    for (const [label, change, status, message] of cases) {
      const r = await api(a, 'POST', `/api/v1/template/${NUMBER}`, variant(change));
      assert.equal(r.status, status, `${label}: ${JSON.stringify(r.body)}`);
      if (message) assert.match(r.body.message, message, label);
      if (status === 400) assert.equal(r.body.data, null, label);
    }
  });

  test('one name per language on a number', async () => {
    const first = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('welcome', 'en'));
    assert.equal(first.status, 200);
    const again = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('welcome', 'en'));
    assert.equal(again.status, 409);
    assert.match(again.body.message, /"welcome" already exists in language en/);
    const spanish = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('welcome', 'es'));
    assert.equal(spanish.status, 200);
    // Another account may use the same name on the shared sandbox number.
    const sandboxA = await api(
      a,
      'POST',
      `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}`,
      orderUpdate('welcome', 'en'),
    );
    const sandboxB = await api(
      b,
      'POST',
      `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}`,
      orderUpdate('welcome', 'en'),
    );
    assert.equal(sandboxA.status, 200, JSON.stringify(sandboxA.body));
    assert.equal(sandboxB.status, 200, JSON.stringify(sandboxB.body));
    assert.equal(sandboxB.body.data.name, 'welcome');
  });

  test('what the network says of a sandbox template names it as its owner did, never by its network name', async () => {
    const user = '254712355501';
    await joinSandbox(t, a, user);
    const created = await api(
      a,
      'POST',
      `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}`,
      orderUpdate('gone_soon'),
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = String(created.body.data.id);
    assert.equal((await call(t.url, 'POST', `/simulator/templates/${id}/review`, { body: {} })).status, 200);
    await eventually(async () => {
      const list = await api(a, 'GET', `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}?name=gone_soon`);
      return list.body.data.data[0]?.status === 'APPROVED';
    });
    // The network loses it (deleted on its side): the next send is refused by the network.
    const networkName = sandboxNetworkName(a.accountId, 'gone_soon');
    const gone = await call(
      t.url,
      'DELETE',
      `/simulator/${t.gateway.config.graph.apiVersion}/${DEFAULT_SANDBOX_NUMBER}/message_templates?name=${networkName}`,
      { headers: { authorization: `Bearer ${t.gateway.config.simulator.accessToken}` } },
    );
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    const sent = await api(a, 'POST', '/api/v1/msg/template', {
      messageId: 'gone-1',
      from: `+${DEFAULT_SANDBOX_NUMBER}`,
      to: `+${user}`,
      template: {
        name: 'gone_soon',
        language: 'en_US',
        components: {
          header: { type: 'TEXT', parameter: '#1' },
          body: { placeholders: ['Jane', 'today'] },
          buttons: [{ index: 1, parameter: '1' }],
        },
      },
    });
    assert.ok(sent.status >= 400 && sent.status < 500, JSON.stringify(sent.body));
    assert.match(sent.body.message, /gone_soon/);
    assert.ok(!sent.body.message.includes(networkName), sent.body.message);
  });

  test("Meta's edit rules: pending never, approved once a day, then back to review", async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('edit_me'));
    const id = created.body.data.id;
    const edited = orderUpdate('edit_me');
    edited.component.footer = { text: 'New footer' };
    const whilePending = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, edited);
    assert.equal(whilePending.status, 409);
    assert.match(whilePending.body.message, /PENDING; only APPROVED, REJECTED or PAUSED/);
    assert.equal((await approved(a, id)).status, 'APPROVED');

    const renamed = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, {
      ...edited,
      name: 'other_name',
    });
    assert.equal(renamed.status, 400);
    assert.match(renamed.body.message, /`name` of a template never changes/);
    const recategorised = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, {
      ...edited,
      category: 'MARKETING',
    });
    assert.equal(recategorised.status, 400);

    const ok = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, edited);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, {
      timestamp: null,
      data: { success: true, error: null },
      status: 'success',
      message: 'success',
      errors: null,
    });
    const afterEdit = await api(a, 'GET', `/api/v1/template/${NUMBER}?name=edit_me`);
    assert.equal(afterEdit.body.data.data[0].components[2].text, 'New footer');
    assert.equal((await approved(a, id)).status, 'APPROVED');
    const secondToday = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, orderUpdate('edit_me'));
    assert.equal(secondToday.status, 429);
    assert.match(secondToday.body.message, /once in 24 hours/);
    assert.ok(Number(secondToday.headers.get('retry-after')) > 80_000);

    // Ten edits of an approved template in 30 days at most. The gateway's history is written into the
    // store, since a test cannot wait days (the network keeps its own, real-time history).
    const DAY = 24 * 3_600_000;
    const history = async (daysAgo: number[]) => {
      await t.gateway.store.db
        .updateTable('templates')
        .set({ edit_times: JSON.stringify(daysAgo.map((d) => Date.now() - d * DAY)) })
        .where('id', '=', id)
        .execute();
    };
    // Ten in the window, none today: refused by the gateway until the oldest is 30 days old.
    await history([2, 4, 6, 8, 10, 12, 14, 16, 18, 29]);
    const eleventh = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, edited);
    assert.equal(eleventh.status, 429);
    assert.match(eleventh.body.message, /edited 10 times in 30 days/);
    const retryAfter = Number(eleventh.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= DAY / 1000, String(retryAfter));
    // Nine in the window (the tenth is 31 days old): the gateway lets the edit through to the network,
    // which refuses it on its own history (this template was edited there today).
    await history([2, 4, 6, 8, 10, 12, 14, 16, 18, 31]);
    const passed = await api(a, 'PUT', `/api/v1/template/${NUMBER}/${id}`, edited);
    assert.equal(passed.status, 422, JSON.stringify(passed.body));
    assert.match(passed.body.message, /last 24 hours/);
  });

  test('delete one language, or a name in every language', async () => {
    const en = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('bye', 'en'));
    const fr = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('bye', 'fr'));
    const de = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('bye', 'de'));
    assert.deepEqual([en.status, fr.status, de.status], [200, 200, 200]);
    const one = await api(a, 'DELETE', `/api/v1/template/${NUMBER}/${en.body.data.id}`);
    assert.equal(one.status, 200);
    let left = await api(a, 'GET', `/api/v1/template/${NUMBER}?name=bye`);
    assert.deepEqual(left.body.data.data.map((x: { language: string }) => x.language).sort(), ['de', 'fr']);
    const all = await api(a, 'DELETE', `/api/v1/template/${NUMBER}?name=bye`);
    assert.equal(all.status, 200);
    left = await api(a, 'GET', `/api/v1/template/${NUMBER}?name=bye`);
    assert.deepEqual(left.body.data.data, []);
    const again = await api(a, 'DELETE', `/api/v1/template/${NUMBER}?name=bye`);
    assert.equal(again.status, 404);
  });

  test('header media: uploaded, checked by content, required as a handle', async () => {
    const upload = async (account: TestAccount, bytes: Buffer, name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      const response = await fetch(`${t.url}/api/v1/template/upload/file`, {
        method: 'POST',
        headers: { apiKey: account.apiKey },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const png = await upload(a, PNG, 'logo.png', 'image/png');
    assert.equal(png.status, 200, JSON.stringify(png.body));
    assert.equal(typeof png.body.data, 'string');
    assert.match(png.body.data, /^4::/);
    const gif = await upload(a, Buffer.from('GIF89a....'), 'logo.png', 'image/png');
    assert.equal(gif.status, 400);
    assert.match(gif.body.message, /JPEG or PNG image, an MP4 video or a PDF/);
    const pdf = await upload(a, Buffer.from('%PDF-1.4\n%%EOF\n'), 'doc.pdf', 'application/pdf');
    assert.equal(pdf.status, 200);
    const notMultipart = await api(a, 'POST', '/api/v1/template/upload/file', { file: 'x' });
    assert.equal(notMultipart.status, 400);

    // Meta's size limits, each at its edge: 5 MB for JPEG and PNG, 16 MB for MP4, 100 MB for PDF.
    const MB = 1024 * 1024;
    const sized = (head: number[], bytes: number) => {
      const b = Buffer.alloc(bytes);
      Buffer.from(head).copy(b);
      return b;
    };
    const pngHead = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const mp4Head = [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d];
    const pdfHead = [...Buffer.from('%PDF-1.7\n')];
    for (const [head, limit, name, type] of [
      [pngHead, 5 * MB, 'big.png', 'image/png'],
      [mp4Head, 16 * MB, 'big.mp4', 'video/mp4'],
      [pdfHead, 100 * MB, 'big.pdf', 'application/pdf'],
    ] as const) {
      const atLimit = await upload(a, sized([...head], limit), name, type);
      assert.equal(atLimit.status, 200, `${name} at ${limit} bytes: ${JSON.stringify(atLimit.body)}`);
      const past = await upload(a, sized([...head], limit + 1), name, type);
      assert.ok(past.status === 400 || past.status === 413, `${name} past the limit: ${past.status}`);
      assert.match(past.body.message, /at most (5|16|100) MB/);
    }

    const withImage = orderUpdate('with_image');
    (withImage.component as any).header = { format: 'IMAGE', example: png.body.data };
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, withImage);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(created.body.data.components[0], {
      type: 'HEADER',
      format: 'IMAGE',
      example: { header_handle: [png.body.data] },
    });
    const wrongKind = orderUpdate('with_video');
    (wrongKind.component as any).header = { format: 'VIDEO', example: png.body.data };
    const refused = await api(a, 'POST', `/api/v1/template/${NUMBER}`, wrongKind);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /image\/png file, which cannot be the media of a VIDEO header/);
    // Another account's handle is unknown to this one.
    const foreign = await api(b, 'POST', `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}`, withImage);
    assert.equal(foreign.status, 400);

    await approved(a, created.body.data.id);
    const base = { messageId: 'img-1', from: NUMBER, to: NEVER_WROTE };
    const template = { name: 'with_image', language: 'en_US' };
    const params = { body: { parameters: ['Jane', 'today'] }, buttons: [{ index: 1, parameter: '1' }] };
    const noHeader = await api(a, 'POST', '/api/v1/msg/template', {
      ...base,
      template: { ...template, components: params },
    });
    assert.equal(noHeader.status, 400);
    assert.match(
      noHeader.body.message,
      /`template\.components\.header` is required: this template has a IMAGE header/,
    );
    const httpUrl = await api(a, 'POST', '/api/v1/msg/template', {
      ...base,
      template: {
        ...template,
        components: { ...params, header: { type: 'IMAGE', mediaUrl: 'http://cdn.example.com/a.png' } },
      },
    });
    assert.equal(httpUrl.status, 400);
    assert.match(httpUrl.body.message, /https:\/\//);
    const sent = await api(a, 'POST', '/api/v1/msg/template', {
      ...base,
      template: {
        ...template,
        components: { ...params, header: { type: 'IMAGE', mediaUrl: 'https://cdn.example.com/a.png' } },
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  });

  test('template send parameters must fit the approved template', async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('fit_check'));
    await approved(a, created.body.data.id);
    const send = (components: unknown, extra: Record<string, unknown> = {}) =>
      api(a, 'POST', '/api/v1/msg/template', {
        messageId: `fit-${Math.random()}`,
        from: NUMBER,
        to: NEVER_WROTE,
        template: { name: 'fit_check', language: 'en_US', components, ...extra },
      });
    const good = {
      header: { type: 'TEXT', parameter: '#1' },
      body: { placeholders: ['a', 'b'] },
      buttons: [{ index: 1, parameter: 'x' }],
    };
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, body: { placeholders: ['a'] } }, /must hold 2 values for this template's body; 1 given/],
      [{ ...good, body: { placeholders: ['a', 'b', 'c'] } }, /2 values.*3 given/],
      [{ ...good, header: undefined }, /`template\.components\.header` is required/],
      [{ ...good, buttons: [] }, /URL button at index 1; got none/],
      [{ ...good, buttons: [{ index: 0, parameter: 'x' }] }, /index 1; got index 0/],
      [{ ...good, body: { placeholders: ['a', 'b'], parameters: ['c', 'd'] } }, /two spellings/],
    ];
    for (const [components, message] of cases) {
      const r = await send(components);
      assert.equal(r.status, 400, JSON.stringify(components));
      assert.deepEqual(Object.keys(r.body), ['timestamp', 'status', 'error', 'path', 'message']);
      assert.match(r.body.message, message);
    }
    const unknownLanguage = await send(good, { language: 'fr' });
    assert.equal(unknownLanguage.status, 404);
    const bothSpellings = await send(good, { languageCode: 'en' });
    assert.equal(bothSpellings.status, 400);
    const languageCode = await api(a, 'POST', '/api/v1/msg/template', {
      messageId: 'fit-language-code',
      from: NUMBER,
      to: NEVER_WROTE,
      template: { name: 'fit_check', languageCode: 'en_US', components: good },
    });
    assert.equal(languageCode.status, 200, JSON.stringify(languageCode.body));
    const replay = await api(a, 'POST', '/api/v1/msg/template', {
      messageId: 'fit-language-code',
      from: NUMBER,
      to: NEVER_WROTE,
      template: { name: 'fit_check', languageCode: 'en_US', components: good },
    });
    assert.equal(replay.body.data.waId, languageCode.body.data.waId);
  });

  test("another account can neither list, update, delete nor send the first account's templates", async () => {
    const created = await api(a, 'POST', `/api/v1/template/${NUMBER}`, orderUpdate('private_one'));
    const id = created.body.data.id;
    await approved(a, id);
    const list = await api(b, 'GET', `/api/v1/template/${NUMBER}`);
    assert.equal(list.status, 403);
    const update = await api(b, 'PUT', `/api/v1/template/${NUMBER}/${id}`, orderUpdate('private_one'));
    assert.equal(update.status, 403);
    const onSandbox = await api(
      b,
      'PUT',
      `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}/${id}`,
      orderUpdate('private_one'),
    );
    assert.equal(onSandbox.status, 404);
    const remove = await api(b, 'DELETE', `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}/${id}`);
    assert.equal(remove.status, 404);
    const sandboxList = await api(b, 'GET', `/api/v1/template/${DEFAULT_SANDBOX_NUMBER}`);
    assert.ok(sandboxList.body.data.data.every((x: { id: string }) => x.id !== id));
    const send = await api(b, 'POST', '/api/v1/msg/template', {
      messageId: 'steal-1',
      from: NUMBER,
      to: NEVER_WROTE,
      template: { name: 'private_one', language: 'en_US' },
    });
    assert.equal(send.status, 403);
    const noKey = await call(t.url, 'GET', `/api/v1/template/${NUMBER}`);
    assert.equal(noKey.status, 401);
    assert.equal(
      (await api(a, 'GET', `/api/v1/template/${NUMBER}`)).body.data.data.some(
        (x: { id: string }) => x.id === id,
      ),
      true,
    );
  });
});
