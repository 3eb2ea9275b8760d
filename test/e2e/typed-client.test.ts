/**
 * The typed client (clients/typescript/) against a real gateway: one journey calls every operation of the
 * served document through it, and the run fails when an operation has no call (a new route without a
 * client call, or a client call the document no longer has). Each answer has the status the reference
 * documents, and the keys of its documented example, so the reference's examples are checked too.
 * The document the client was generated from (clients/typescript/openapi.json) must be the one served:
 * a route changed without `npm run client:generate` fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { formData, switchboardClient } from '../../clients/typescript/src/index.ts';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { API_REFERENCE } from '../../src/http/api-reference/index.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import {
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const USER = '254712377001';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SIGN_UP_FLOW = readFileSync(new URL('../../examples/flows/sign-up.json', import.meta.url), 'utf8');
const GENERATED_FROM = new URL('../../clients/typescript/openapi.json', import.meta.url);

/** The keys of an answer's `data` (or of the answer, for the bare ones), first level. */
function keysOf(body: unknown): string[] {
  const value = body && typeof body === 'object' && 'data' in body ? (body as { data: unknown }).data : body;
  const first = Array.isArray(value) ? value[0] : value;
  return first && typeof first === 'object' ? Object.keys(first).sort() : [];
}

/** The `data` of an envelope the client got, which must be there. */
function dataOf<T>(answer: { data?: unknown }): T {
  const body = answer.data as { data?: T } | undefined;
  assert.ok(body?.data !== undefined, 'an answer with data');
  return body.data as T;
}

describe('the typed client, every operation', () => {
  let t: TestGateway;
  let account: TestAccount;
  /** `METHOD /path` of every call made, as the document writes it. */
  const called = new Set<string>();
  /** Answers whose keys differ from their documented example's. */
  const unlike: string[] = [];
  let api: ReturnType<typeof switchboardClient>;

  before(async () => {
    t = await startGateway({ env: { SIMULATOR_TEMPLATE_REVIEW_MS: '50' } });
    account = await createAccount(t, 'Client Co');
    api = switchboardClient({ baseUrl: t.url, apiKey: account.apiKey });
    api.use({
      async onResponse({ schemaPath, request, response }) {
        const key = `${request.method} ${schemaPath}`;
        called.add(key);
        const documented = API_REFERENCE[key];
        assert.ok(documented, `${key} is documented`);
        assert.equal(response.status, documented.success.status, `${key} answered ${response.status}`);
        if (!response.headers.get('content-type')?.startsWith('application/json')) return;
        const answer = keysOf(await response.clone().json());
        const example = keysOf(documented.success.example);
        if (answer.join() !== example.join())
          unlike.push(`${key}: answered ${answer}, documented ${example}`);
      },
    });
  });
  after(() => t?.close());

  test('the client was generated from the document the gateway serves', async () => {
    const served = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    assert.deepEqual(JSON.parse(readFileSync(GENERATED_FROM, 'utf8')), served, 'run npm run client:generate');
  });

  test('a journey through every operation, each answering as documented', async () => {
    const phone = { phone: USER };
    const joined = await api.POST('/simulator/users/{phone}/messages', {
      params: { path: phone },
      body: { to: SANDBOX, text: `join ${account.joinCode}` } as never,
    });
    const joinId = (joined.data as { id: string }).id;
    await eventually(
      async () => (await api.GET('/simulator/users/{phone}/messages', { params: { path: phone } })).data,
    );

    const from = SANDBOX;
    const to = `+${USER}`;
    const sent = await api.POST('/api/v1/msg/message/text', {
      body: { messageId: 'c-1', from, to, message: 'Hi' },
    });
    assert.deepEqual(
      keysOf(sent.data),
      keysOf(API_REFERENCE['POST /api/v1/msg/message/text']?.success.example),
    );
    const status = await api.GET('/api/v1/msg/message/{messageId}', {
      params: { path: { messageId: 'c-1' } },
    });
    assert.deepEqual(
      keysOf(status.data),
      keysOf(API_REFERENCE['GET /api/v1/msg/message/{messageId}']?.success.example),
    );

    const upload = await api.POST('/api/v1/media/{phone}', {
      params: { path: { phone: SANDBOX } },
      body: { file: new Blob([new Uint8Array(PNG)], { type: 'image/png' }) },
      bodySerializer: formData({ filename: 'dot.png' }),
    });
    const mediaId = String(dataOf<{ mediaId: string }>(upload).mediaId);
    const image = await api.POST('/api/v1/msg/media', {
      body: { messageId: 'c-2', from, to, mediaType: 'IMAGE', mediaId },
    });
    await api.POST('/api/v1/msg/location', {
      body: {
        messageId: 'c-3',
        from,
        to,
        latitude: '-1.2921',
        longitude: '36.8219',
        name: 'Shop',
        address: 'Kenyatta Ave 1',
      },
    });
    await api.POST('/api/v1/msg/request_location', { body: { messageId: 'c-4', from, to, text: 'Where?' } });
    await api.POST('/api/v1/msg/contact', {
      body: {
        messageId: 'c-5',
        from,
        to,
        name: { formattedName: 'Jane Doe' },
        phones: [{ phone: '+254700000000', type: 'WORK' }],
      },
    });
    await api.POST('/api/v1/msg/interactive/buttons', {
      body: { messageId: 'c-6', from, to, text: 'Ok?', buttons: [{ id: 'yes', title: 'Yes' }] },
    });
    await api.POST('/api/v1/msg/interactive/list', {
      body: {
        messageId: 'c-7',
        from,
        to,
        body: 'Pick one',
        buttons: [{ sectionTitle: 'Slots', sectionItems: [{ id: 'am', title: 'Morning' }] }],
      },
    });
    await api.POST('/api/v1/msg/interactive/cta_url', {
      body: {
        messageId: 'c-8',
        from,
        to,
        body: 'Track it',
        buttonText: 'Track',
        url: 'https://shop.example.org/t/42',
      },
    });
    await api.POST('/api/v1/msg/reaction', {
      body: { messageId: 'c-9', from, to, replyTo: joinId, emoji: '👍' },
    });
    await api.POST('/api/v1/msg/read', { body: { from, messageId: joinId } });

    // Templates: created, approved by the simulated review, sent, edited, deleted.
    const template = {
      name: 'client_update',
      language: 'en_US',
      category: 'UTILITY',
      component: { body: { text: 'Hi {{1}}, your order ships today. Thank you.', examples: ['Jane'] } },
    };
    const created = await api.POST('/api/v1/template/{phone}', {
      params: { path: { phone: SANDBOX } },
      body: template,
    });
    const templateId = String(dataOf<{ id: string }>(created).id);
    await eventually(async () => {
      const list = await api.GET('/api/v1/template/{phone}', {
        params: { path: { phone: SANDBOX }, query: { name: 'client_update' } },
      });
      return dataOf<{ data: { status: string }[] }>(list).data[0]?.status === 'APPROVED';
    });
    await api.POST('/api/v1/msg/template', {
      body: {
        messageId: 'c-10',
        from,
        to,
        template: {
          name: 'client_update',
          language: 'en_US',
          components: { body: { placeholders: ['Jane'] } },
        },
      },
    });

    // Campaigns: a CSV audience, scheduled for later (so each move is answered as documented), paused,
    // resumed, read, cancelled, deleted.
    const campaign = await api.POST('/api/v1/campaigns', {
      body: {
        name: 'Client update',
        from: SANDBOX,
        template: { name: 'client_update', language: 'en_US' },
        parameters: [{ column: 'first_name', fallback: 'there' }],
        audience: { csv: true },
        startAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    const campaignId = { params: { path: { id: String(dataOf<{ id: string }>(campaign).id) } } };
    await api.GET('/api/v1/campaigns', { params: { query: { per_page: '10' } } });
    await api.PATCH('/api/v1/campaigns/{id}', { ...campaignId, body: { name: 'Client update, again' } });
    await api.POST('/api/v1/campaigns/{id}/audience', {
      ...campaignId,
      body: { file: new Blob([`phone,first_name\n${to},Jane\n`], { type: 'text/csv' }) },
      bodySerializer: formData({ filename: 'audience.csv' }),
    });
    await api.POST('/api/v1/campaigns/{id}/start', campaignId);
    await api.POST('/api/v1/campaigns/{id}/pause', campaignId);
    await api.POST('/api/v1/campaigns/{id}/resume', campaignId);
    await api.GET('/api/v1/campaigns/{id}', campaignId);
    await api.GET('/api/v1/campaigns/{id}/recipients', {
      params: { ...campaignId.params, query: { status: 'queued', per_page: '10' } },
    });
    await api.POST('/api/v1/campaigns/{id}/cancel', campaignId);
    await api.DELETE('/api/v1/campaigns/{id}', campaignId);
    await api.PUT('/api/v1/template/{phone}/{templateId}', {
      params: { path: { phone: SANDBOX, templateId } },
      body: {
        ...template,
        component: { body: { text: 'Hi {{1}}, your order ships tomorrow. Thank you.', examples: ['Jane'] } },
      },
    });
    await api.DELETE('/api/v1/template/{phone}/{templateId}', {
      params: { path: { phone: SANDBOX, templateId } },
    });
    await api.POST('/api/v1/template/{phone}', {
      params: { path: { phone: SANDBOX } },
      body: { ...template, name: 'client_promo' },
    });
    await api.DELETE('/api/v1/template/{phone}', {
      params: { path: { phone: SANDBOX }, query: { name: 'client_promo' } },
    });
    await api.POST('/api/v1/template/upload/file', {
      body: { file: new Blob([new Uint8Array(PNG)], { type: 'image/png' }) },
      bodySerializer: formData({ filename: 'header.png' }),
    });

    // Flows: created, changed, previewed, published, sent, deprecated; another deleted.
    const flowFile = () => new Blob([SIGN_UP_FLOW], { type: 'application/json' });
    const flow = await api.POST('/api/v1/msg/manage/flow', {
      body: { phoneNumber: SANDBOX, name: 'Sign up', categories: 'SIGN_UP', file: flowFile() },
      bodySerializer: formData({ filename: 'flow.json' }),
    });
    const flowId = String(dataOf<{ id: number }>(flow).id);
    const flowPath = { params: { path: { id: flowId } } };
    await api.PUT('/api/v1/msg/manage/flow/{id}', {
      ...flowPath,
      body: { name: 'Sign up, again' },
      bodySerializer: formData(),
    });
    await api.GET('/api/v1/msg/manage/flow/{id}/preview/url', flowPath);
    await api.POST('/api/v1/msg/manage/flow/{id}/publish', flowPath);
    const flowSent = await api.POST('/api/v1/msg/interactive/flows', {
      body: { messageId: 'c-11', from, to, text: 'Sign up', flowId, flowCta: 'Start', screen: 'SIGN_UP' },
    });
    // Opened on the phone while it may be: a deprecated flow no longer opens.
    await api.GET('/simulator/users/{phone}/flows/{messageId}', {
      params: { path: { phone: USER, messageId: dataOf<{ waId: string }>(flowSent).waId } },
    });
    await api.POST('/api/v1/msg/manage/flow/{id}/deprecate', flowPath);
    const doomed = await api.POST('/api/v1/msg/manage/flow', {
      body: { phoneNumber: SANDBOX, name: 'Doomed', categories: 'OTHER', file: flowFile() },
      bodySerializer: formData({ filename: 'flow.json' }),
    });
    await api.DELETE('/api/v1/msg/manage/flow/{id}', {
      params: { path: { id: String(dataOf<{ id: number }>(doomed).id) } },
    });
    const flows = await api.GET('/api/v1/msg/manage/flow', {
      params: { query: { page: '1', per_page: '20' } },
    });
    assert.deepEqual(
      keysOf(flows.data),
      keysOf(API_REFERENCE['GET /api/v1/msg/manage/flow']?.success.example),
    );

    // Webhook endpoints and their deliveries.
    const endpoint = await api.POST('/api/v1/webhooks', {
      body: { url: 'https://hooks.example.org/client', events: ['message.received'] },
    });
    const id = String(dataOf<{ id: string }>(endpoint).id);
    const byId = { params: { path: { id } } };
    await api.GET('/api/v1/webhooks');
    await api.GET('/api/v1/webhooks/{id}', byId);
    await api.PATCH('/api/v1/webhooks/{id}', {
      ...byId,
      body: { events: ['message.received', 'message.status'] },
    });
    await api.POST('/api/v1/webhooks/{id}/rotate-secret', byId);
    await api.POST('/api/v1/webhooks/{id}/test', byId);
    await insertEvent(t.gateway.store.db, account.accountId, 'message.received', { text: 'x' }, Date.now());
    const deliveries = await eventually(async () => {
      const listed = await api.GET('/api/v1/webhooks/{id}/deliveries', byId);
      return dataOf<{ id: string }[]>(listed).length > 0 ? listed : undefined;
    });
    const deliveryId = dataOf<{ id: string }[]>(deliveries)[0]?.id ?? '';
    await api.POST('/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
      params: { path: { id, deliveryId } },
    });
    await api.POST('/api/v1/webhooks/{id}/replay', {
      ...byId,
      body: { since: new Date(Date.now() - 60_000).toISOString() },
    });
    await api.DELETE('/api/v1/webhooks/{id}', byId);

    // Contacts.
    const contact = await api.POST('/api/v1/contacts', {
      body: { phone: '+447911123456', name: 'Amina', tags: ['vip'] },
    });
    const contactId = { params: { path: { id: String(dataOf<{ id: string }>(contact).id) } } };
    await api.GET('/api/v1/contacts', { params: { query: { tag: 'vip', per_page: '10' } } });
    await api.GET('/api/v1/opt-outs', { params: { query: { number: SANDBOX, per_page: '10' } } });
    await api.GET('/api/v1/contacts/{id}', contactId);
    await api.PATCH('/api/v1/contacts/{id}', { ...contactId, body: { tags: ['vip', 'newsletter'] } });
    await api.DELETE('/api/v1/contacts/{id}', contactId);
    await api.POST('/api/v1/contacts/import', {
      body: { file: new Blob(['phone,name\n+254712000301,Wanjiru\n'], { type: 'text/csv' }) },
      bodySerializer: formData({ filename: 'contacts.csv' }),
    });

    // The virtual user rings the business (the gateway logs the network's calls webhook).
    await api.POST('/simulator/users/{phone}/calls', {
      params: { path: phone },
      body: { to: SANDBOX } as never,
    });
    // The user stops the sandbox's marketing, and resumes it.
    await api.PUT('/simulator/users/{phone}/marketing', {
      params: { path: phone },
      body: { business: SANDBOX, stopped: true } as never,
    });
    await api.GET('/simulator/users/{phone}/marketing', {
      params: { path: phone, query: { business: SANDBOX } } as never,
    });
    await api.PUT('/simulator/users/{phone}/marketing', {
      params: { path: phone },
      body: { business: SANDBOX, stopped: false } as never,
    });
    // The virtual phone's own reads.
    await api.GET('/simulator/users/{phone}/chats', { params: { path: phone } });
    await api.GET('/simulator/users/{phone}/chat', {
      params: { path: phone, query: { with: SANDBOX } } as never,
    });
    const onPhone = await eventually(async () => {
      const received = await api.GET('/simulator/users/{phone}/messages', { params: { path: phone } });
      const messages = (received.data as { messages: { id: string; content: { image?: { id: string } } }[] })
        .messages;
      return messages.find((m) => m.id === dataOf<{ waId: string }>(image).waId);
    });
    await api.GET('/simulator/users/{phone}/media/{id}', {
      params: { path: { phone: USER, id: String(onPhone.content.image?.id) } },
      parseAs: 'blob',
    });
    // Forgotten by the network too, once the phone has shown it.
    await api.DELETE('/api/v1/media/{phone}/{mediaId}', { params: { path: { phone: SANDBOX, mediaId } } });
    const events = await api.GET('/simulator/users/{phone}/events', {
      params: { path: phone },
      parseAs: 'stream',
    });
    await events.response.body?.cancel();

    assert.deepEqual(unlike, [], 'every answer has the keys of its documented example');
    const documented = Object.keys(API_REFERENCE).sort();
    assert.deepEqual([...called].sort(), documented, 'every operation of the document, through the client');
  });

  test('every documented request example is accepted as it is written', async () => {
    // The examples' placeholders, made real: the user who joins, the message they sent, the flow.
    const user = '254712345678';
    const other = await createAccount(t, 'Examples Co');
    const examples = switchboardClient({ baseUrl: t.url, apiKey: other.apiKey });
    const example = (key: string) => API_REFERENCE[key]?.requestExample as Record<string, unknown>;
    const run = async (
      key: string,
      call: (body: never) => Promise<{ data?: unknown; error?: unknown; response: Response }>,
      swap = {},
    ) => {
      let text = JSON.stringify(example(key));
      for (const [from, to] of Object.entries(swap)) text = text.replaceAll(from, String(to));
      const answer = await call(JSON.parse(text) as never);
      const documented = API_REFERENCE[key]?.success.status;
      assert.equal(answer.response.status, documented, `${key}: ${JSON.stringify(answer.error)}`);
      return answer.data as any;
    };
    const joined = await run(
      'POST /simulator/users/{phone}/messages',
      (body) =>
        examples.POST('/simulator/users/{phone}/messages', { params: { path: { phone: user } }, body }),
      { 'maple-tiger-river-104233': other.joinCode },
    );
    const created = await run('POST /api/v1/template/{phone}', (body) =>
      examples.POST('/api/v1/template/{phone}', { params: { path: { phone: SANDBOX } }, body }),
    );
    await eventually(async () => {
      const list = await examples.GET('/api/v1/template/{phone}', {
        params: { path: { phone: SANDBOX }, query: { name: 'order_update' } },
      });
      return dataOf<{ data: { status: string }[] }>(list).data[0]?.status === 'APPROVED';
    });
    const flow = await examples.POST('/api/v1/msg/manage/flow', {
      body: { phoneNumber: SANDBOX, name: 'Sign up', categories: 'SIGN_UP', file: new Blob([SIGN_UP_FLOW]) },
      bodySerializer: formData({ filename: 'flow.json' }),
    });
    const flowId = String(dataOf<{ id: number }>(flow).id);
    await examples.POST('/api/v1/msg/manage/flow/{id}/publish', { params: { path: { id: flowId } } });
    const swap = {
      'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5': joined.id,
      '"flowId":"1"': `"flowId":"${flowId}"`,
    };
    const sends = Object.keys(API_REFERENCE).filter((k) => API_REFERENCE[k]?.refusals === 'send');
    for (const key of sends) {
      const path = key.slice('POST '.length) as '/api/v1/msg/message/text';
      await run(key, (body) => examples.POST(path, { body }), swap);
    }
    await run('POST /api/v1/msg/read', (body) => examples.POST('/api/v1/msg/read', { body }), swap);
    const templateId = String(created.data.id);
    await run('PUT /api/v1/template/{phone}/{templateId}', (body) =>
      examples.PUT('/api/v1/template/{phone}/{templateId}', {
        params: { path: { phone: SANDBOX, templateId } },
        body,
      }),
    );
    const endpoint = await run('POST /api/v1/webhooks', (body) =>
      examples.POST('/api/v1/webhooks', { body }),
    );
    const byId = { params: { path: { id: String(endpoint.data.id) } } };
    await run('PATCH /api/v1/webhooks/{id}', (body) =>
      examples.PATCH('/api/v1/webhooks/{id}', { ...byId, body }),
    );
    await run('POST /api/v1/webhooks/{id}/replay', (body) =>
      examples.POST('/api/v1/webhooks/{id}/replay', { ...byId, body }),
    );
    await run('POST /simulator/users/{phone}/calls', (body) =>
      examples.POST('/simulator/users/{phone}/calls', { params: { path: { phone: user } }, body }),
    );
    await run('PUT /simulator/users/{phone}/marketing', (body) =>
      examples.PUT('/simulator/users/{phone}/marketing', { params: { path: { phone: user } }, body }),
    );
    const contact = await run('POST /api/v1/contacts', (body) => examples.POST('/api/v1/contacts', { body }));
    await run('PATCH /api/v1/contacts/{id}', (body) =>
      examples.PATCH('/api/v1/contacts/{id}', { params: { path: { id: String(contact.data.id) } }, body }),
    );
    // The campaign example's number and template, made real on the sandbox.
    await examples.POST('/api/v1/template/{phone}', {
      params: { path: { phone: SANDBOX } },
      body: {
        name: 'winter_sale',
        language: 'en_US',
        category: 'MARKETING',
        component: {
          body: {
            text: 'Hello {{1}}, our winter sale has started: enjoy {{2}} off every coat in {{3}} shop until Sunday.',
            examples: ['Amina', '20%', 'our'],
          },
        },
      },
    });
    await eventually(async () => {
      const list = await examples.GET('/api/v1/template/{phone}', {
        params: { path: { phone: SANDBOX }, query: { name: 'winter_sale' } },
      });
      return dataOf<{ data: { status: string }[] }>(list).data[0]?.status === 'APPROVED';
    });
    const campaign = await run(
      'POST /api/v1/campaigns',
      (body) => examples.POST('/api/v1/campaigns', { body }),
      {
        '+14155550123': SANDBOX,
      },
    );
    await run('PATCH /api/v1/campaigns/{id}', (body) =>
      examples.PATCH('/api/v1/campaigns/{id}', { params: { path: { id: String(campaign.data.id) } }, body }),
    );
    const withExamples = Object.keys(API_REFERENCE).filter(
      (k) => API_REFERENCE[k]?.requestExample !== undefined,
    );
    assert.equal(withExamples.length, sends.length + 13, 'every example above was run');
  });
});
