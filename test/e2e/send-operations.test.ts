/**
 * Every send operation over real HTTP: a happy send that reaches the virtual phone, malformed requests in
 * the contract's 400 shape (docs/contract.md), and the shared security battery (no key, wrong key, revoked key, another
 * account's number).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { createApiKey } from '../../src/domain/api-keys.ts';
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

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const USER = '+254712345001';
const WIRE_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

/** One valid request per operation, as the samples of docs/contract.md write them, and what the phone shows. */
const operations: { path: string; body: Record<string, unknown>; phoneType?: string; rendered?: RegExp }[] = [
  {
    path: '/api/v1/msg/message/text',
    body: { message: 'Hi there' },
    phoneType: 'text',
    rendered: /Hi there/,
  },
  {
    path: '/api/v1/msg/media',
    body: { mediaType: 'image', mediaUrl: 'https://example.com/cat.jpg', caption: 'A cat' },
    phoneType: 'image',
    rendered: /A cat/,
  },
  {
    path: '/api/v1/msg/location',
    body: { latitude: '-1.2921', longitude: '36.8219', name: 'Nairobi', address: 'Kenya' },
    phoneType: 'location',
    rendered: /Nairobi/,
  },
  {
    path: '/api/v1/msg/request_location',
    body: { text: 'Where should we deliver?' },
    phoneType: 'interactive',
    rendered: /Where should we deliver\?/,
  },
  {
    path: '/api/v1/msg/contact',
    body: { name: { formattedName: 'Jane Doe' }, phones: [{ phone: '+254700000000', type: 'work' }] },
    phoneType: 'contacts',
    rendered: /Jane Doe/,
  },
  {
    path: '/api/v1/msg/interactive/buttons',
    body: {
      text: 'Confirm?',
      buttons: [
        { id: 'yes', title: 'Yes' },
        { id: 'no', title: 'No' },
      ],
    },
    phoneType: 'interactive',
    rendered: /Confirm\?/,
  },
  {
    path: '/api/v1/msg/interactive/list',
    body: {
      headerText: 'Menu',
      body: 'Pick a dish',
      buttonText: 'View',
      buttons: [
        { sectionTitle: 'Mains', sectionItems: [{ id: 'burger', title: 'Burger', description: '200 g' }] },
      ],
    },
    phoneType: 'interactive',
    rendered: /Pick a dish/,
  },
  {
    path: '/api/v1/msg/interactive/flows',
    body: {
      text: 'Sign up',
      flowId: '12345',
      flowCta: 'Start',
      screen: 'WELCOME',
      data: { service: 'x', serviceOption: 'y', package: 'z' },
    },
  },
];

describe('send operations', () => {
  let t: TestGateway;
  let account: TestAccount;
  let other: TestAccount;
  const OTHER_NUMBER = '+14155550123';

  before(async () => {
    t = await startGateway();
    account = await createAccount(t, 'Main Co');
    other = await createAccount(t, 'Other Co');
    await joinSandbox(t, account, USER.slice(1));
    // The other account owns a business number of its own.
    await addSimulatedNumber(t, other.accountId, OTHER_NUMBER.slice(1));
  });
  after(() => t.close());

  for (const [index, op] of operations.entries()) {
    const common = { messageId: `op-${index}`, from: SANDBOX, to: USER };

    if (op.phoneType) {
      test(`${op.path}: a valid send reaches the phone`, async () => {
        const r = await call(t.url, 'POST', op.path, {
          key: account.apiKey,
          body: { ...common, ...op.body },
        });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.data.status, 'SENT');
        const got = await eventually(async () =>
          (await receivedBy(t, USER.slice(1))).find((m) => m.id === r.body.data.waId),
        );
        assert.equal(got.type, op.phoneType);
        assert.match(got.rendered, op.rendered!);
      });
    } else {
      test(`${op.path}: an unknown flow is a 404`, async () => {
        const r = await call(t.url, 'POST', op.path, {
          key: account.apiKey,
          body: { ...common, ...op.body },
        });
        assert.equal(r.status, 404);
        assert.equal(r.body.status, 'error');
        assert.match(r.body.message, /flow "12345"/);
      });
    }

    test(`${op.path}: a missing messageId is a 400 in the documented shape`, async () => {
      const { messageId: _omit, ...rest } = common;
      const r = await call(t.url, 'POST', op.path, { key: account.apiKey, body: { ...rest, ...op.body } });
      assert.equal(r.status, 400);
      assert.deepEqual(Object.keys(r.body), ['timestamp', 'status', 'error', 'path', 'message']);
      assert.match(r.body.timestamp, WIRE_TIMESTAMP);
      assert.equal(r.body.status, 400);
      assert.equal(r.body.error, 'Bad Request');
      assert.equal(r.body.path, op.path);
      assert.equal(r.body.message, '`messageId` is required');
    });

    test(`${op.path}: an unknown field and a wrong type are named`, async () => {
      const unknown = await call(t.url, 'POST', op.path, {
        key: account.apiKey,
        body: { ...common, ...op.body, colour: 'red' },
      });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.message, '`colour` is not a known field');
      const wrongType = await call(t.url, 'POST', op.path, {
        key: account.apiKey,
        body: { ...common, ...op.body, to: 254712345001 },
      });
      assert.equal(wrongType.status, 400);
      assert.equal(wrongType.body.message, '`to` must be a string');
    });

    test(`${op.path}: an invalid phone number is named`, async () => {
      const r = await call(t.url, 'POST', op.path, {
        key: account.apiKey,
        body: { ...common, ...op.body, to: '+1 555 123' },
      });
      assert.equal(r.status, 400);
      assert.match(r.body.message, /`to` must be a valid phone number/);
    });

    test(`${op.path}: no key, a wrong key and a revoked key get the documented 401`, async () => {
      const revoked = await createApiKey(t.gateway.repos.accounts, account.accountId, 'to revoke');
      await t.gateway.repos.accounts.revokeKeyOfAccount(account.accountId, revoked.key.id);
      for (const key of [undefined, 'sb_live_wrong', revoked.plainKey]) {
        const r = await call(t.url, 'POST', op.path, { key, body: { ...common, ...op.body } });
        assert.equal(r.status, 401);
        assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
        assert.match(r.body.timestamp, WIRE_TIMESTAMP);
        assert.equal(r.body.data, null);
        assert.equal(r.body.status, 'success');
        assert.equal(r.body.message, 'Invalid credentials');
        assert.equal(r.body.errors, null);
      }
    });

    test(`${op.path}: another account's number cannot be used as from (403)`, async () => {
      const r = await call(t.url, 'POST', op.path, {
        key: account.apiKey,
        body: { ...common, ...op.body, messageId: `foreign-${index}`, from: OTHER_NUMBER },
      });
      assert.equal(r.status, 403);
      assert.equal(r.body.status, 'error');
      assert.match(r.body.message, /\+14155550123 is neither the sandbox number/);
    });
  }

  test('a body that is not JSON is a 400 in the send shape', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: '{"messageId":',
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.error, 'Bad Request');
    assert.equal(r.body.message, 'the request body is not valid JSON');
  });

  test('valid JSON with a `__proto__` key is a 400 that says so, not "not valid JSON"', async () => {
    for (const body of [
      '{"messageId":"p1","from":"14155550100","to":"254712345678","message":"hi","__proto__":{"x":1}}',
      '{"messageId":"p2","from":"14155550100","to":"254712345678","message":"hi","constructor":{"prototype":{}}}',
    ]) {
      const r = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body });
      assert.equal(r.status, 400, body);
      assert.equal(r.body.error, 'Bad Request');
      assert.match(r.body.message, /`__proto__` key, or a `constructor` key holding `prototype`/);
    }
    const contacts = await call(t.url, 'POST', '/api/v1/contacts', {
      key: account.apiKey,
      body: '{"contacts":[{"phone":"+254712345679","attributes":{"__proto__":{"a":1}}}]}',
    });
    assert.equal(contacts.status, 400);
    assert.equal(contacts.body.status, 'error');
    assert.match(contacts.body.message, /`__proto__` key/);
  });

  test('a JSON array instead of an object is a 400', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', { key: account.apiKey, body: '[1,2]' });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, '`body` must be an object');
  });

  test('a body over the size limit is a 413', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: { messageId: 'big', from: SANDBOX, to: USER, message: 'x'.repeat(300 * 1024) },
    });
    assert.equal(r.status, 413);
    assert.equal(r.body.status, 'error');
    assert.match(r.body.message, /larger than the 262144 bytes allowed/);
  });

  test('a non-JSON content type is a 415', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key: account.apiKey,
      body: 'message=hi',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(r.status, 415);
    assert.equal(r.body.status, 'error');
  });

  test('an unknown route is a 404 envelope', async () => {
    const r = await call(t.url, 'GET', '/api/v1/nothing', { key: account.apiKey });
    assert.equal(r.status, 404);
  });
});
