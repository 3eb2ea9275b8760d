/**
 * The security battery over every /api/v1 route, on SQLite and on PostgreSQL. The routes are read from the
 * gateway's own OpenAPI document, so a new route is covered as soon as it exists: a route without an
 * entry in ROUTES below fails its test until one is written.
 *
 * For each route: no key, malformed keys and a revoked key get the documented 401; another account's
 * resources are a 404 (numbers: the same 403 as a number nobody registered, so nothing is revealed);
 * SQL-injection-looking values in path, query and body are refused or stored as plain data, never a 5xx,
 * never another account's data; header injection is neutralised; the per-key rate limit answers 429 with
 * Retry-After. Then the forged network webhook and the webhook URL guard.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { createApiKey } from '../../src/domain/api-keys.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { createSignUpFlow, FLOWS, SIGN_UP_FLOW } from '../support/flows.ts';
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
import { inboundTextEnvelope, signNetworkBody } from '../support/network-envelopes.ts';
import { postgresSkipReason } from '../support/postgres.ts';

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const WIRE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const INJECTIONS = [
  "' OR '1'='1",
  '1; DROP TABLE messages; --',
  '" OR ""="',
  "x' UNION SELECT hash, account_id FROM api_keys --",
  "%' OR account_id LIKE '%",
  '$1',
  "\\'; SELECT pg_sleep(0); --",
];

/** The ids a request addresses: the caller's own, another account's, or injection strings. */
interface Ids {
  messageId: string;
  /** The network id of a message the account received (its user's join). */
  receivedId: string;
  templateId: string;
  templateName: string;
  flowId: string;
  webhookId: string;
  deliveryId: string;
  /** A business number (its E.164 with +). */
  phone: string;
  /** Media uploaded to send by id. */
  uploadId: string;
  contactId: string;
  campaignId: string;
}

type Body = Record<string, unknown>;

interface RouteCase {
  path(ids: Ids): string;
  /** A plausible JSON body, or the text parts of a multipart body (`multipart`). */
  body?(ids: Ids): Body;
  multipart?: 'flow' | 'file';
  /** Known query fields, with plausible values. */
  query?(ids: Ids): Record<string, string>;
  /** What another account's ids give: 404, or for a number the 403 of a number nobody registered. */
  foreign?: 404 | 'number';
}

const enc = encodeURIComponent;
let counter = 0;
const fresh = (tag: string) => `${tag}-${++counter}`;
const send = (extra: Body) => () => ({ messageId: fresh('sec'), from: SANDBOX, to: ATTACKER_USER, ...extra });
const template = (name: string) => ({
  name,
  language: 'en_US',
  category: 'UTILITY',
  component: { body: { text: 'Hi {{1}}, your order ships today.', examples: ['Jane'] } },
});

const ATTACKER_USER = '254712388001';
const VICTIM_USER = '254712388002';
const VICTIM_NUMBER = '+14155550177';
const NOBODYS_NUMBER = '+14155550178';

/** One entry per `METHOD path` of the OpenAPI document. */
const ROUTES: Record<string, RouteCase> = {
  'POST /api/v1/msg/message/text': { path: () => '/api/v1/msg/message/text', body: send({ message: 'hi' }) },
  'POST /api/v1/msg/media': {
    path: () => '/api/v1/msg/media',
    body: send({ mediaType: 'IMAGE', mediaUrl: 'https://example.com/a.jpg', caption: 'c' }),
  },
  'POST /api/v1/msg/location': {
    path: () => '/api/v1/msg/location',
    body: send({ latitude: '1.5', longitude: '36.8', name: 'n', address: 'a' }),
  },
  'POST /api/v1/msg/request_location': {
    path: () => '/api/v1/msg/request_location',
    body: send({ text: 'where?' }),
  },
  'POST /api/v1/msg/contact': {
    path: () => '/api/v1/msg/contact',
    body: send({ name: { formattedName: 'Jane' }, phones: [{ phone: '+254700000000', type: 'work' }] }),
  },
  'POST /api/v1/msg/interactive/buttons': {
    path: () => '/api/v1/msg/interactive/buttons',
    body: send({ text: 'ok?', buttons: [{ id: 'y', title: 'Yes' }] }),
  },
  'POST /api/v1/msg/interactive/list': {
    path: () => '/api/v1/msg/interactive/list',
    body: send({ body: 'pick', buttons: [{ sectionTitle: 'S', sectionItems: [{ id: 'a', title: 'A' }] }] }),
  },
  'POST /api/v1/msg/interactive/flows': {
    path: () => '/api/v1/msg/interactive/flows',
    body: (ids) => send({ text: 'go', flowId: ids.flowId, flowCta: 'Start', screen: 'SIGN_UP', data: {} })(),
    foreign: 404,
  },
  'POST /api/v1/msg/template': {
    path: () => '/api/v1/msg/template',
    body: (ids) =>
      send({
        template: {
          name: ids.templateName,
          language: 'en_US',
          components: { body: { placeholders: ['J'] } },
        },
      })(),
    foreign: 404,
  },
  'POST /api/v1/msg/reaction': {
    path: () => '/api/v1/msg/reaction',
    body: (ids) => send({ replyTo: ids.receivedId, emoji: '👍' })(),
  },
  'POST /api/v1/msg/interactive/cta_url': {
    path: () => '/api/v1/msg/interactive/cta_url',
    body: send({ body: 'Track your order', buttonText: 'Track', url: 'https://example.com/t' }),
  },
  'POST /api/v1/msg/read': {
    path: () => '/api/v1/msg/read',
    body: (ids) => ({ from: SANDBOX, messageId: ids.receivedId }),
    foreign: 404,
  },
  'GET /api/v1/msg/message/{messageId}': {
    path: (ids) => `/api/v1/msg/message/${enc(ids.messageId)}`,
    foreign: 404,
  },
  'GET /api/v1/template/{phone}': {
    path: (ids) => `/api/v1/template/${enc(ids.phone)}`,
    query: (ids) => ({ status: 'APPROVED', name: ids.templateName, language: 'en_US' }),
    foreign: 'number',
  },
  'POST /api/v1/template/{phone}': {
    path: (ids) => `/api/v1/template/${enc(ids.phone)}`,
    body: () => template(fresh('tpl').replace('-', '_')),
    foreign: 'number',
  },
  'DELETE /api/v1/template/{phone}': {
    path: () => `/api/v1/template/${enc(SANDBOX)}`,
    query: (ids) => ({ name: ids.templateName }),
    foreign: 404,
  },
  'PUT /api/v1/template/{phone}/{templateId}': {
    path: (ids) => `/api/v1/template/${enc(SANDBOX)}/${enc(ids.templateId)}`,
    body: (ids) => template(ids.templateName),
    foreign: 404,
  },
  'DELETE /api/v1/template/{phone}/{templateId}': {
    path: (ids) => `/api/v1/template/${enc(SANDBOX)}/${enc(ids.templateId)}`,
    foreign: 404,
  },
  'POST /api/v1/template/upload/file': { path: () => '/api/v1/template/upload/file', multipart: 'file' },
  'POST /api/v1/media/{phone}': {
    path: (ids) => `/api/v1/media/${enc(ids.phone)}`,
    multipart: 'file',
    foreign: 'number',
  },
  'DELETE /api/v1/media/{phone}/{mediaId}': {
    path: (ids) => `/api/v1/media/${enc(ids.phone)}/${enc(ids.uploadId)}`,
    foreign: 404,
  },
  'POST /api/v1/msg/manage/flow': {
    path: () => FLOWS,
    multipart: 'flow',
    body: (ids) => ({ phoneNumber: ids.phone, name: fresh('flow'), categories: 'SIGN_UP' }),
    foreign: 'number',
  },
  'GET /api/v1/msg/manage/flow': { path: () => FLOWS, query: () => ({ page: '1', per_page: '20' }) },
  'PUT /api/v1/msg/manage/flow/{id}': {
    path: (ids) => `${FLOWS}/${enc(ids.flowId)}`,
    multipart: 'flow',
    body: () => ({ name: fresh('renamed') }),
    foreign: 404,
  },
  'DELETE /api/v1/msg/manage/flow/{id}': { path: (ids) => `${FLOWS}/${enc(ids.flowId)}`, foreign: 404 },
  'GET /api/v1/msg/manage/flow/{id}/preview/url': {
    path: (ids) => `${FLOWS}/${enc(ids.flowId)}/preview/url`,
    foreign: 404,
  },
  'POST /api/v1/msg/manage/flow/{id}/publish': {
    path: (ids) => `${FLOWS}/${enc(ids.flowId)}/publish`,
    foreign: 404,
  },
  'POST /api/v1/msg/manage/flow/{id}/deprecate': {
    path: (ids) => `${FLOWS}/${enc(ids.flowId)}/deprecate`,
    foreign: 404,
  },
  'POST /api/v1/webhooks': {
    path: () => '/api/v1/webhooks',
    body: () => ({ url: `https://hooks.example.com/${fresh('h')}`, events: ['message.status'] }),
  },
  'GET /api/v1/webhooks': { path: () => '/api/v1/webhooks' },
  'GET /api/v1/webhooks/{id}': { path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}`, foreign: 404 },
  'PATCH /api/v1/webhooks/{id}': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}`,
    body: () => ({ url: 'https://hooks.example.com/patched', enabled: true }),
    foreign: 404,
  },
  'DELETE /api/v1/webhooks/{id}': { path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}`, foreign: 404 },
  'POST /api/v1/webhooks/{id}/rotate-secret': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}/rotate-secret`,
    foreign: 404,
  },
  'POST /api/v1/webhooks/{id}/test': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}/test`,
    foreign: 404,
  },
  'GET /api/v1/webhooks/{id}/deliveries': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}/deliveries`,
    query: () => ({ status: 'pending', limit: '10' }),
    foreign: 404,
  },
  'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}/deliveries/${enc(ids.deliveryId)}/redeliver`,
    foreign: 404,
  },
  'POST /api/v1/contacts': {
    path: () => '/api/v1/contacts',
    body: () => ({ phone: '+254712000777', name: 'Battery', tags: ['t'], attributes: { city: 'Nairobi' } }),
  },
  'POST /api/v1/contacts/import': { path: () => '/api/v1/contacts/import', multipart: 'file' },
  'GET /api/v1/contacts': {
    path: () => '/api/v1/contacts',
    query: () => ({ tag: 't', page: '1', per_page: '10' }),
  },
  'GET /api/v1/opt-outs': {
    path: () => '/api/v1/opt-outs',
    query: () => ({ number: '+14155550100', user: '+447911123456', page: '1', per_page: '10' }),
  },
  'GET /api/v1/contacts/{id}': { path: (ids) => `/api/v1/contacts/${enc(ids.contactId)}`, foreign: 404 },
  'PATCH /api/v1/contacts/{id}': {
    path: (ids) => `/api/v1/contacts/${enc(ids.contactId)}`,
    body: () => ({ name: 'Patched' }),
    foreign: 404,
  },
  'DELETE /api/v1/contacts/{id}': { path: (ids) => `/api/v1/contacts/${enc(ids.contactId)}`, foreign: 404 },
  'POST /api/v1/campaigns': {
    path: () => '/api/v1/campaigns',
    body: (ids) => ({
      name: 'Battery',
      from: ids.phone,
      template: { name: ids.templateName, language: 'en_US' },
      audience: { contactIds: [ids.contactId] },
    }),
  },
  'GET /api/v1/campaigns': { path: () => '/api/v1/campaigns', query: () => ({ page: '1', per_page: '10' }) },
  'GET /api/v1/campaigns/{id}': { path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}`, foreign: 404 },
  'PATCH /api/v1/campaigns/{id}': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}`,
    body: () => ({ name: 'Patched' }),
    foreign: 404,
  },
  'DELETE /api/v1/campaigns/{id}': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}`,
    foreign: 404,
  },
  'POST /api/v1/campaigns/{id}/start': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/start`,
    foreign: 404,
  },
  'POST /api/v1/campaigns/{id}/pause': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/pause`,
    foreign: 404,
  },
  'POST /api/v1/campaigns/{id}/resume': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/resume`,
    foreign: 404,
  },
  'POST /api/v1/campaigns/{id}/cancel': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/cancel`,
    foreign: 404,
  },
  'POST /api/v1/campaigns/{id}/audience': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/audience`,
    multipart: 'file',
    foreign: 404,
  },
  'GET /api/v1/campaigns/{id}/recipients': {
    path: (ids) => `/api/v1/campaigns/${enc(ids.campaignId)}/recipients`,
    query: () => ({ status: 'queued', page: '1', per_page: '10' }),
    foreign: 404,
  },
  'POST /api/v1/webhooks/{id}/replay': {
    path: (ids) => `/api/v1/webhooks/${enc(ids.webhookId)}/replay`,
    body: () => ({ since: '2026-01-01T00:00:00Z' }),
    foreign: 404,
  },
};

/** Routes that change or delete what they address: called with the caller's own ids only when named. */
const DESTRUCTIVE = /^(DELETE|PUT|PATCH) |\/(publish|deprecate|rotate-secret|redeliver|replay)$/;

interface Response {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function request(
  t: TestGateway,
  method: string,
  route: RouteCase,
  ids: Ids,
  options: {
    key?: string;
    headers?: Record<string, string>;
    body?: Body | null;
    query?: Record<string, string>;
  },
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.apiKey = options.key;
  const query = options.query ?? route.query?.(ids);
  const url = t.url + route.path(ids) + (query ? `?${new URLSearchParams(query)}` : '');
  const bodyValue = options.body === undefined ? route.body?.(ids) : options.body;
  let body: string | FormData | undefined;
  if (route.multipart) {
    const form = new FormData();
    for (const [name, value] of Object.entries(bodyValue ?? {})) form.append(name, String(value));
    if (route.multipart === 'flow')
      form.append('file', new Blob([SIGN_UP_FLOW], { type: 'application/json' }), 'flow.json');
    else form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'doc.pdf');
    body = form;
  } else if (bodyValue) {
    body = JSON.stringify(bodyValue);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, text, body: parsed };
}

function assertInvalidCredentials(r: Response, what: string) {
  assert.equal(r.status, 401, `${what}: ${r.text}`);
  assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
  assert.match(r.body.timestamp, WIRE_TIMESTAMP);
  assert.equal(r.body.data, null);
  assert.equal(r.body.status, 'success');
  assert.equal(r.body.message, 'Invalid credentials');
  assert.equal(r.body.errors, null);
}

/** A 4xx or a success, in a documented JSON shape: never a 5xx, never an unshaped body. */
function assertAnswered(r: Response, what: string) {
  assert.ok(r.status < 500, `${what} answered ${r.status}: ${r.text.slice(0, 300)}`);
  assert.equal(typeof r.body, 'object', `${what}: a JSON body, got ${r.text.slice(0, 200)}`);
  assert.doesNotMatch(r.text, /SQLITE_|syntax error|sqlite|postgres|relation "|stack/i, what);
}

/** A user writes to a business number through the network's signed webhook (a forged one, unless signed). */

/** Sends raw bytes over a socket and returns the raw answer: for requests fetch() refuses to make. */
function rawHttp(url: string, bytes: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d) => {
      answer += d;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/** Everything an account owns that a route can address. */
async function seed(t: TestGateway, account: TestAccount, user: string, tag: string): Promise<Ids> {
  await joinSandbox(t, account, user);
  const messageId = `${tag}-msg-q7`;
  const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
    key: account.apiKey,
    body: { messageId, from: SANDBOX, to: user, message: `${tag} secret text` },
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const templateName = `${tag}_tpl_q7`;
  const tpl = await call(t.url, 'POST', `/api/v1/template/${enc(SANDBOX)}`, {
    key: account.apiKey,
    body: template(templateName),
  });
  assert.equal(tpl.status, 200, JSON.stringify(tpl.body));
  const flow = await createSignUpFlow(t, account.apiKey, SANDBOX, `${tag} flow q7`);
  const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
    key: account.apiKey,
    body: { url: `https://${tag}-hooks.example.com/q7` },
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  await insertEvent(t.gateway.store.db, account.accountId, 'message.received', { tag }, Date.now());
  const deliveries = await call(t.url, 'GET', `/api/v1/webhooks/${hook.body.data.id}/deliveries`, {
    key: account.apiKey,
  });
  assert.equal(deliveries.status, 200, JSON.stringify(deliveries.body));
  const [join] = await t.gateway.repos.inbound.listOfAccount(account.accountId, 1);
  assert.ok(join, 'the join was received');
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4\n%%EOF\n'], { type: 'application/pdf' }), 'doc.pdf');
  const uploaded = await fetch(`${t.url}/api/v1/media/${enc(SANDBOX)}`, {
    method: 'POST',
    headers: { apiKey: account.apiKey },
    body: form,
  });
  assert.equal(uploaded.status, 200, await uploaded.clone().text());
  const uploadId = ((await uploaded.json()) as { data: { mediaId: string } }).data.mediaId;
  const contact = await call(t.url, 'POST', '/api/v1/contacts', {
    key: account.apiKey,
    body: { phone: '+254712000778', name: `${tag} contact` },
  });
  assert.equal(contact.status, 201, JSON.stringify(contact.body));
  const campaign = await call(t.url, 'POST', '/api/v1/campaigns', {
    key: account.apiKey,
    body: {
      name: `${tag} campaign`,
      from: SANDBOX,
      template: { name: templateName, language: 'en_US' },
      // The template's {{1}}: valid whether its review is still pending or already approved by now.
      parameters: [{ value: 'Jane' }],
      audience: { contactIds: [contact.body.data.id] },
    },
  });
  assert.equal(campaign.status, 201, JSON.stringify(campaign.body));
  return {
    messageId,
    receivedId: join.waId,
    templateId: String(tpl.body.data.id),
    templateName,
    flowId: String(flow.id),
    webhookId: hook.body.data.id,
    deliveryId: deliveries.body.data[0].id,
    phone: SANDBOX,
    uploadId,
    contactId: contact.body.data.id,
    campaignId: campaign.body.data.id,
  };
}

/** `METHOD /path` of every /api/v1 operation in the OpenAPI document of a freshly built gateway. */
async function documentedRoutes(): Promise<string[]> {
  const probe = await startGateway();
  try {
    const doc = (await call(probe.url, 'GET', '/openapi.json')).body as { paths: Record<string, object> };
    return Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
  } finally {
    await probe.close();
  }
}

const documented = await documentedRoutes();
/** Ids nobody has: for checks that must not touch anything real. */
const GHOST: Ids = {
  messageId: 'ghost',
  receivedId: 'wamid.ghost',
  templateId: 'ghost',
  templateName: 'ghost',
  flowId: '999999999',
  webhookId: 'whk_ghost',
  deliveryId: 'dlv_ghost',
  phone: SANDBOX,
  uploadId: 'upl_ghost',
  contactId: 'ctc_ghost',
  campaignId: 'cmp_ghost',
};
const databases = ['sqlite', 'postgres'] as const;

for (const database of databases) {
  describe(`security battery over every /api/v1 route (${database})`, async () => {
    const skip = database === 'postgres' ? await postgresSkipReason() : false;
    let t: TestGateway | undefined;
    let limited: TestGateway | undefined;
    let attacker: TestAccount;
    let victim: TestAccount;
    let own: Ids;
    let foreign: Ids;
    let revokedKey: string;
    /** Strings only the victim's data contains: none may ever appear in an answer to the attacker. */
    let victimMarkers: string[];

    before(async () => {
      if (skip) return;
      // The battery sends hundreds of requests per key within seconds: this gateway's limit is set far
      // above them. The rate limit itself is checked on `limited`, whose limit is tiny.
      // Its sends all go to one user, far past the network's pair limit (131056), which is not under test.
      // Nor are the statuses of its hundreds of sends: without their webhooks the suite costs a sixth
      // less CPU (12.0 s against 10.0 s, two runs each).
      t = await startGateway({
        database,
        env: {
          RATE_LIMIT_PER_SECOND: '100000',
          SIMULATOR_PAIR_BURST: '0',
          SIMULATOR_STATUS_WEBHOOKS: 'false',
        },
      });
      limited = await startGateway({ database, env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '2' } });
      attacker = await createAccount(t, 'Attacker Co');
      victim = await createAccount(t, 'Victim Co');
      own = await seed(t, attacker, ATTACKER_USER, 'attacker');
      foreign = { ...(await seed(t, victim, VICTIM_USER, 'victim')), phone: VICTIM_NUMBER };
      await addSimulatedNumber(t, victim.accountId, VICTIM_NUMBER.slice(1));
      const revoked = await createApiKey(t.gateway.repos.accounts, attacker.accountId, 'revoked');
      await t.gateway.repos.accounts.revokeKeyOfAccount(attacker.accountId, revoked.key.id);
      revokedKey = revoked.plainKey;
      victimMarkers = ['victim-msg-q7', 'victim_tpl_q7', 'victim flow q7', 'victim-hooks', victim.accountId];
    });
    after(async () => {
      await t?.close();
      await limited?.close();
    });

    test('every documented /api/v1 route has an entry in the battery', { skip }, () => {
      assert.ok(documented.length >= 30, `only ${documented.length} routes documented`);
      const missing = documented.filter((r) => !ROUTES[r]);
      assert.deepEqual(missing, [], `add these routes to ROUTES in test/e2e/security.test.ts`);
      const stale = Object.keys(ROUTES).filter((r) => !documented.includes(r));
      assert.deepEqual(stale, [], 'these battery entries name routes that no longer exist');
    });

    for (const name of documented) {
      const [method, openApiPath] = name.split(' ') as [string, string];
      describe(name, { skip }, () => {
        const route = (): RouteCase => {
          const entry = ROUTES[name];
          assert.ok(entry, `${name} has no entry in ROUTES: add one (test/e2e/security.test.ts)`);
          return entry;
        };

        test('no key, malformed keys and a revoked key get the documented 401', async () => {
          const r = route();
          assertInvalidCredentials(await request(t!, method, r, own, {}), 'no key');
          for (const key of ['', 'sb_live_', 'x'.repeat(300), "' OR '1'='1", `${revokedKey.slice(0, -1)}0`]) {
            assertInvalidCredentials(await request(t!, method, r, own, { key }), `key ${key.slice(0, 20)}`);
          }
          assertInvalidCredentials(await request(t!, method, r, own, { key: revokedKey }), 'revoked key');
        });

        test("another account's resources are not found (or, for numbers, not told apart)", async () => {
          const r = route();
          if (!r.foreign) {
            // Routes that address nothing: the answer still holds nothing of the other account.
            if (DESTRUCTIVE.test(name)) return;
            const answer = await request(t!, method, r, own, { key: attacker.apiKey });
            assertAnswered(answer, name);
            for (const marker of victimMarkers)
              assert.ok(!answer.text.includes(marker), `${name} leaked ${marker}`);
            return;
          }
          const answer = await request(t!, method, r, foreign, { key: attacker.apiKey });
          if (r.foreign === 404) {
            assert.equal(answer.status, 404, `${name}: ${answer.text}`);
            assert.equal(answer.body.status, 'error');
            assert.equal(answer.body.data, null);
          } else {
            assert.equal(answer.status, 403, `${name}: ${answer.text}`);
            const nobodys = await request(
              t!,
              method,
              r,
              { ...foreign, phone: NOBODYS_NUMBER },
              {
                key: attacker.apiKey,
              },
            );
            assert.equal(nobodys.status, 403);
            assert.equal(
              nobodys.body.message.replace(NOBODYS_NUMBER, '<n>'),
              answer.body.message.replace(VICTIM_NUMBER, '<n>'),
              'a number of another account answers exactly like a number nobody registered',
            );
          }
          for (const marker of victimMarkers.filter((m) => !Object.values(foreign).includes(m))) {
            assert.ok(!answer.text.includes(marker), `${name} leaked ${marker}`);
          }
          // Every authenticated answer carries the rate-limit headers.
          assert.match(answer.headers.get('ratelimit-limit') ?? '', /^\d+$/);
          assert.match(answer.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
          assert.match(answer.headers.get('ratelimit-reset') ?? '', /^\d+$/);
        });

        test('SQL-injection-looking values in path, query and body are refused or kept as data', async () => {
          const r = route();
          const check = (answer: Response, what: string) => {
            assertAnswered(answer, `${name} ${what}`);
            for (const marker of victimMarkers)
              assert.ok(!answer.text.includes(marker), `${name} ${what} leaked ${marker}`);
          };
          const hasParams = openApiPath.includes('{');
          for (const value of INJECTIONS) {
            if (hasParams) {
              const ids = Object.fromEntries(Object.keys(own).map((k) => [k, value])) as unknown as Ids;
              check(await request(t!, method, r, ids, { key: attacker.apiKey }), `path=${value}`);
            }
            const query = r.query?.(own);
            for (const field of Object.keys(query ?? {})) {
              const answer = await request(t!, method, r, own, {
                key: attacker.apiKey,
                query: { ...query, [field]: value },
              });
              check(answer, `query ${field}=${value}`);
            }
            const body = r.body?.(own);
            for (const [field, original] of Object.entries(body ?? {})) {
              if (typeof original !== 'string' || field === 'messageId') continue;
              const answer = await request(t!, method, r, own, {
                key: attacker.apiKey,
                body: { ...r.body!(own), [field]: value },
              });
              check(answer, `body ${field}=${value}`);
            }
          }
        });

        test('CR/LF in headers and in the path never reach a response header', async () => {
          const r = route();
          const path = r.path(GHOST);
          // Node's parser refuses a CR or LF inside a header value: an envelope 400, and the line after it is
          // never read as a header of its own.
          for (const smuggled of ['abc\rSet-Cookie: injected=1', 'abc\nSet-Cookie: injected=1']) {
            const answer = await rawHttp(
              t!.url,
              `${method} ${path} HTTP/1.1\r\nHost: x\r\napiKey: ${attacker.apiKey}\r\nX-Request-Id: ${smuggled}\r\n\r\n`,
            );
            const [head = '', body = ''] = answer.split('\r\n\r\n');
            assert.match(head, /^HTTP\/1\.1 400 Bad Request\r\n/);
            assert.doesNotMatch(head, /set-cookie|injected/i);
            assert.match(JSON.parse(body).message, /not valid HTTP/);
          }
          // Percent-encoded CR/LF in the path stays data.
          const encoded = path.replace(/\/[^/]*$/, '/x%0d%0aSet-Cookie:%20injected=1');
          const answer = await fetch(t!.url + encoded, { method, headers: { apiKey: attacker.apiKey } });
          assert.equal(answer.headers.get('set-cookie'), null);
          assert.ok(answer.status < 500);
          // A request id that is not a plain token is replaced, a plain one echoed.
          const odd = await request(t!, method, r, GHOST, {
            key: attacker.apiKey,
            headers: { 'x-request-id': 'id <script>alert(1)</script>' },
            body: null,
          });
          assert.match(odd.headers.get('x-request-id') ?? '', UUID);
          const plain = await request(t!, method, r, GHOST, {
            key: attacker.apiKey,
            headers: { 'x-request-id': 'req-42.a:b_c' },
            body: null,
          });
          assert.equal(plain.headers.get('x-request-id'), 'req-42.a:b_c');
        });

        test('over the per-key limit: 429 with Retry-After in the error envelope', async () => {
          const r = route();
          const account = await createAccount(limited!, `Busy ${name}`);
          let refused: Response | undefined;
          let allowed = 0;
          for (let i = 0; i < 10 && !refused; i++) {
            const answer = await request(limited!, method, r, GHOST, { key: account.apiKey, body: null });
            assert.equal(answer.headers.get('ratelimit-limit'), '2');
            if (answer.status === 429) refused = answer;
            else allowed++;
          }
          assert.ok(refused, `${name} was never limited`);
          assert.ok(allowed >= 2, 'the burst of 2 passes first');
          assert.deepEqual(Object.keys(refused.body), ['timestamp', 'data', 'status', 'message', 'errors']);
          assert.equal(refused.body.status, 'error');
          assert.match(refused.body.message, /too many requests with this API key/);
          assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
          assert.equal(refused.headers.get('ratelimit-remaining'), '0');
          // Another key is counted on its own.
          const other = await createAccount(limited!, `Idle ${name}`);
          const fine = await request(limited!, method, r, GHOST, { key: other.apiKey, body: null });
          assert.notEqual(fine.status, 429);
        });
      });
    }

    test("after the battery the other account's resources are intact", { skip }, async () => {
      const key = victim.apiKey;
      const message = await call(t!.url, 'GET', `/api/v1/msg/message/${foreign.messageId}`, { key });
      assert.equal(message.status, 200);
      const hook = await call(t!.url, 'GET', `/api/v1/webhooks/${foreign.webhookId}`, { key });
      assert.equal(hook.status, 200);
      assert.equal(hook.body.data.url, 'https://victim-hooks.example.com/q7');
      const flows = await call(t!.url, 'GET', FLOWS, { key });
      assert.deepEqual(
        flows.body.data.map((f: { id: number; status: string }) => [f.id, f.status]),
        [[Number(foreign.flowId), 'DRAFT']],
      );
      const templates = await call(t!.url, 'GET', `/api/v1/template/${enc(SANDBOX)}`, { key });
      assert.deepEqual(
        templates.body.data.data.map((x: { name: string }) => x.name),
        ['victim_tpl_q7'],
      );
    });

    test("another account's delivery under one's own endpoint is not found either", { skip }, async () => {
      const mixed = await call(
        t!.url,
        'POST',
        `/api/v1/webhooks/${own.webhookId}/deliveries/${foreign.deliveryId}/redeliver`,
        { key: attacker.apiKey },
      );
      assert.equal(mixed.status, 404, JSON.stringify(mixed.body));
      const listed = await call(t!.url, 'GET', `/api/v1/webhooks/${own.webhookId}/deliveries`, {
        key: attacker.apiKey,
      });
      assert.equal(listed.status, 200);
      assert.ok(!listed.body.data.some((d: { id: string }) => d.id === foreign.deliveryId));
    });

    test('injection-looking text is sent and stored as plain data', { skip }, async () => {
      const messageId = "x' OR '1'='1; --";
      const text = "Robert'); DROP TABLE messages;--";
      const sent = await call(t!.url, 'POST', '/api/v1/msg/message/text', {
        key: attacker.apiKey,
        body: { messageId, from: SANDBOX, to: ATTACKER_USER, message: text },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      const read = await call(t!.url, 'GET', `/api/v1/msg/message/${enc(messageId)}`, {
        key: attacker.apiKey,
      });
      assert.equal(read.status, 200);
      assert.equal(read.body.data.messageId, messageId);
      const phone = await eventually(async () =>
        (await receivedBy(t!, ATTACKER_USER)).find((m) => m.id === sent.body.data.waId),
      );
      assert.match(phone.rendered, /Robert'\); DROP TABLE messages;--/);
    });

    test('a forged network webhook is refused with 401 and nothing is stored', { skip }, async () => {
      const db = t!.gateway.store.db;
      const waId = 'wamid.FORGED.q7';
      // Status events of earlier sends may still be recorded meanwhile: count only what the forgery could add.
      const stored = async () => ({
        inbound: (await db.selectFrom('inbound_messages').select('wa_id').where('wa_id', '=', waId).execute())
          .length,
        events: (await db.selectFrom('events').select('id').where('payload', 'like', `%${waId}%`).execute())
          .length,
        members: (await db.selectFrom('sandbox_members').select('account_id').execute()).length,
      });
      const before = await stored();
      assert.deepEqual({ inbound: before.inbound, events: before.events }, { inbound: 0, events: 0 });
      const user = '254712388077';
      const raw = JSON.stringify(inboundTextEnvelope(user, waId, `join ${victim.joinCode}`, 'Mallory'));
      const post = (signature?: string) =>
        fetch(`${t!.url}/webhooks/network`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }),
          },
          body: raw,
        });
      // The install's own app secret (derived from its secret key; src/config/simulator-secrets.ts).
      const APP_SECRET = t!.gateway.config.graph.appSecret;
      for (const signature of [
        undefined,
        '',
        'sha256=',
        'sha256=zz',
        signNetworkBody(raw, 'not-the-app-secret'),
        signNetworkBody(`${raw} `, APP_SECRET),
        signNetworkBody(raw, APP_SECRET).replace('sha256=', 'sha1='),
      ]) {
        const answer = await post(signature);
        assert.equal(answer.status, 401, `signature ${signature}`);
      }
      assert.deepEqual(await stored(), before);
      assert.equal(
        await t!.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, user),
        undefined,
      );
      // The same bytes correctly signed are taken: the refusals above were about the signature alone.
      assert.equal((await post(signNetworkBody(raw, APP_SECRET))).status, 200);
      await eventually(
        async () =>
          (await t!.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, user)) ===
          victim.accountId,
      );
    });

    test('webhook URLs pointing inside the network are refused', { skip }, async () => {
      const refused = [
        'https://127.0.0.1/hooks',
        'https://127.1/hooks',
        'https://2130706433/hooks',
        'https://0x7f.0.0.1/hooks',
        'https://localhost/hooks',
        'https://localhost./hooks',
        'https://api.localhost/hooks',
        'https://0.0.0.0/hooks',
        'https://10.1.2.3/hooks',
        'https://172.16.5.4/hooks',
        'https://192.168.1.10/hooks',
        'https://100.64.0.1/hooks',
        'https://169.254.169.254/latest/meta-data/',
        'https://[::1]/hooks',
        'https://[::]/hooks',
        'https://[fe80::1]/hooks',
        'https://[fc00::1]/hooks',
        'https://[fd12:3456::1]/hooks',
        'https://[::ffff:127.0.0.1]/hooks',
        'https://[::ffff:10.0.0.1]/hooks',
        'https://[::ffff:169.254.169.254]/hooks',
        'https://[::ffff:7f00:1]/hooks',
        'https://[::127.0.0.1]/hooks',
        'https://[64:ff9b::a00:1]/hooks',
        'http://hooks.example.com/plain-http',
        'https://user:pass@hooks.example.com/x',
      ];
      for (const url of refused) {
        const created = await call(t!.url, 'POST', '/api/v1/webhooks', {
          key: attacker.apiKey,
          body: { url },
        });
        assert.equal(created.status, 400, `${url}: ${JSON.stringify(created.body)}`);
        assert.match(created.body.message, /^`url` must/);
        const patched = await call(t!.url, 'PATCH', `/api/v1/webhooks/${own.webhookId}`, {
          key: attacker.apiKey,
          body: { url },
        });
        assert.equal(patched.status, 400, `PATCH ${url}`);
      }
      const hooks = await call(t!.url, 'GET', '/api/v1/webhooks', { key: attacker.apiKey });
      for (const url of refused) {
        assert.ok(!hooks.body.data.some((h: { url: string }) => h.url === url), `${url} was stored`);
      }
      const fine = await call(t!.url, 'POST', '/api/v1/webhooks', {
        key: attacker.apiKey,
        body: { url: 'https://hooks.example.com/public' },
      });
      assert.equal(fine.status, 201, 'a public https URL is accepted');
    });

    test('after the window a limited key is allowed again', { skip }, async () => {
      const account = await createAccount(limited!, 'Patient Co');
      const get = () => call(limited!.url, 'GET', '/api/v1/msg/message/none', { key: account.apiKey });
      let refused: Awaited<ReturnType<typeof get>> | undefined;
      for (let i = 0; i < 10 && !refused; i++) {
        const answer = await get();
        if (answer.status === 429) refused = answer;
      }
      assert.ok(refused);
      const wait = Number(refused.headers.get('retry-after'));
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      const again = await get();
      assert.equal(again.status, 404, JSON.stringify(again.body));
      assert.equal(again.headers.get('ratelimit-limit'), '2');
    });
  });
}
