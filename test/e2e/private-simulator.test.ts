/**
 * A simulator reachable beyond this machine (HOST=0.0.0.0) is private: without its token every
 * /simulator route answers 401 and changes nothing (no reading phones, no writing as a user, no faults,
 * no sends as the sandbox number); with the token, as a Bearer header or as the cookie the phone page's
 * `?token=` sets, everything works; and the gateway's own sends through the in-process simulator still do.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  type ApiResponse,
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712399001';
const SANDBOX = DEFAULT_SANDBOX_NUMBER;

/** Every route of the simulator, with a request that succeeds (or fails on its own terms) given the token. */
const ROUTES: [method: string, path: string, body?: unknown][] = [
  ['GET', '/simulator/phone'],
  ['GET', '/simulator/phone/app.js'],
  ['GET', '/simulator/phone/dom.js'],
  ['GET', '/simulator/phone/rich-text.js'],
  ['GET', '/simulator/phone/message-view.js'],
  ['GET', '/simulator/phone/flow-sheet.js'],
  ['GET', '/simulator/phone/template-view.js'],
  ['GET', '/simulator/phone/reactions.js'],
  ['GET', '/simulator/phone/phone.css'],
  ['GET', `/simulator/users/${USER}/messages`],
  ['POST', `/simulator/users/${USER}/messages`, { to: SANDBOX, text: 'hello' }],
  ['GET', `/simulator/users/${USER}/chat?with=${SANDBOX}`],
  ['GET', `/simulator/users/${USER}/chats`],
  ['GET', `/simulator/users/${USER}/media/9000000000000001`],
  ['GET', `/simulator/users/${USER}/flows/wamid.none`],
  ['GET', '/simulator/faults'],
  ['POST', '/simulator/faults', { status5xx: true }],
  ['DELETE', '/simulator/faults'],
  ['POST', '/simulator/templates/8000000000000001/status', { status: 'PAUSED' }],
  ['POST', '/simulator/templates/8000000000000001/review', {}],
  ['POST', '/simulator/templates/8000000000000001/category', { category: 'MARKETING' }],
  ['POST', '/simulator/templates/8000000000000001/quality', { score: 'RED' }],
  ['GET', '/simulator/numbers/14155550123/restriction'],
  ['PUT', '/simulator/numbers/14155550123/restriction', { restricted: true }],
  ['GET', `/simulator/users/${USER}/marketing?business=${SANDBOX}`],
  ['PUT', `/simulator/users/${USER}/marketing`, { business: SANDBOX, stopped: true }],
];

/** The simulated Graph API: its credential is the access token, as on Meta's. */
const GRAPH: [method: string, path: string, body?: unknown][] = [
  [
    'POST',
    `/simulator/v23.0/${SANDBOX}/messages`,
    { messaging_product: 'whatsapp', to: USER, type: 'text', text: { body: 'x' } },
  ],
  ['GET', `/simulator/v23.0/${SANDBOX}`],
  ['GET', `/simulator/v23.0/${SANDBOX}/message_templates`],
  ['GET', `/simulator/v23.0/${SANDBOX}/flows`],
  ['GET', '/simulator/media-download/9000000000000001?expires=1&signature=x'],
];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a simulator reachable beyond loopback needs its token', () => {
  let t: TestGateway;
  let account: TestAccount;

  const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(t.url, method, path, { body, headers });
  const members = () => t.gateway.repos.conversations.sandboxAccountOf(SANDBOX, USER);
  const token = () => t.gateway.config.simulator.token;

  before(async () => {
    t = await startGateway({ env: { HOST: '0.0.0.0' } });
    account = await createAccount(t, 'Private Co');
  });
  after(() => t.close());

  test('without the token (or with a wrong one) every simulator route is 401', async () => {
    const attempts: Record<string, string>[] = [
      {},
      bearer('A'.repeat(43)),
      { cookie: 'switchboard_simulator=nope' },
    ];
    for (const headers of attempts) {
      for (const [method, path, body] of ROUTES) {
        const r = await send(method, path, body, headers);
        assert.equal(r.status, 401, `${method} ${path} ${JSON.stringify(headers)}`);
        assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer/);
      }
    }
    const page = await send('GET', '/simulator/phone', undefined);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(String(page.body), /This simulator is private/);
    const api = await send('GET', `/simulator/users/${USER}/messages`, undefined);
    assert.match(api.body.error.message, /Authorization: Bearer/);
    // Nothing happened: no user wrote, no fault is set.
    assert.equal(await members(), undefined);
    const faults = await send('GET', '/simulator/faults', undefined, bearer(token()));
    assert.deepEqual(faults.body.faults, {});
  });

  test('the simulated Graph API refuses sends without the access token, and the old fixed one', async () => {
    for (const credential of [undefined, 'simulator-access-token', token()]) {
      for (const [method, path, body] of GRAPH) {
        const r = await send(method, path, body, credential ? bearer(credential) : {});
        assert.equal(r.status, 401, `${method} ${path} with ${credential}`);
        // No token at all is Meta's 104; a wrong one its 190.
        if (!path.includes('media-download')) assert.equal(r.body.error.code, credential ? 190 : 104);
      }
    }
  });

  test('with the Bearer token every route works; the gateway sends through the simulator as before', async () => {
    const joined = await send(
      'POST',
      `/simulator/users/${USER}/messages`,
      { to: SANDBOX, text: `join ${account.joinCode}` },
      bearer(token()),
    );
    assert.equal(joined.status, 202);
    await eventually(async () => (await members()) === account.accountId);
    for (const [method, path, body] of ROUTES) {
      const r = await send(method, path, body, bearer(token()));
      assert.ok(r.status !== 401 && r.status < 500, `${method} ${path}: ${r.status}`);
    }
    // The gateway's own Graph calls carry the install's access token.
    const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'private-1', from: `+${SANDBOX}`, to: `+${USER}`, message: 'through the gate' },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const onPhone = await eventually(async () => {
      const r = await send('GET', `/simulator/users/${USER}/messages`, undefined, bearer(token()));
      return r.body.messages.find((m: { id: string }) => m.id === sent.body.data.waId);
    });
    assert.equal(onPhone.rendered, 'through the gate');
    // Statuses come back signed with the install's app secret, and are taken.
    await eventually(async () => {
      const r = await call(t.url, 'GET', '/api/v1/msg/message/private-1', { key: account.apiKey });
      return r.body.data?.status === 'READ';
    });
  });

  test('?token= on the phone page sets an HttpOnly, SameSite=Strict cookie and drops the token from the URL', async () => {
    const response = await fetch(`${t.url}/simulator/phone?user=%2B${USER}&token=${token()}`, {
      redirect: 'manual',
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), `/simulator/phone?user=%2B${USER}`);
    const cookie = response.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^switchboard_simulator=[^;]+; /);
    assert.match(cookie, /; Path=\/simulator(;|$)/);
    assert.match(cookie, /; HttpOnly(;|$)/);
    assert.match(cookie, /; SameSite=Strict(;|$)/);
    assert.doesNotMatch(cookie, /Secure/, 'plain http with an http PUBLIC_URL');
    const jar = { cookie: cookie.split(';')[0]! };

    const page = await send('GET', `/simulator/phone?user=%2B${USER}`, undefined, jar);
    assert.equal(page.status, 200);
    assert.match(String(page.body), /Virtual phone/);
    const chat: ApiResponse = await send(
      'GET',
      `/simulator/users/${USER}/chat?with=${SANDBOX}`,
      undefined,
      jar,
    );
    assert.equal(chat.status, 200);
    const stream = new AbortController();
    const events = await fetch(`${t.url}/simulator/users/${USER}/events`, {
      headers: jar,
      signal: stream.signal,
    });
    assert.equal(events.status, 200);
    assert.match(events.headers.get('content-type') ?? '', /^text\/event-stream/);
    stream.abort();

    const wrong = await fetch(`${t.url}/simulator/phone?token=not-the-token`, { redirect: 'manual' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.match(await wrong.text(), /not this simulator’s/);
  });
});

describe('the private simulator behind https', () => {
  test('its cookie is Secure when PUBLIC_URL is https', async () => {
    const t = await startGateway({ env: { HOST: '0.0.0.0', PUBLIC_URL: 'https://switchboard.example.com' } });
    try {
      const response = await fetch(`${t.url}/simulator/phone?token=${t.gateway.config.simulator.token}`, {
        redirect: 'manual',
      });
      assert.equal(response.status, 303);
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure(;|$)/);
    } finally {
      await t.close();
    }
  });
});

describe('a simulator on loopback', () => {
  test('stays open to this machine, as the quick start uses it', async () => {
    const t = await startGateway();
    try {
      assert.equal(t.gateway.config.simulator.requireToken, false);
      const r = await call(t.url, 'GET', `/simulator/users/${USER}/messages`);
      assert.equal(r.status, 200);
    } finally {
      await t.close();
    }
  });
});
