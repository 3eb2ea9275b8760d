/**
 * Flow management at its edges, over real HTTP (operations 9–12 and docs/contract.md §4): every refusal of
 * create and update with the part and the rule it names, publish, deprecate and delete in every status,
 * list paging at its bounds, and isolation between two accounts on every route.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  createSignUpFlow,
  FLOWS,
  type FlowFormParts,
  flowRequest,
  onGateway,
  SIGN_UP_FLOW,
} from '../support/flows.ts';
import {
  type ApiResponse,
  addSimulatedNumber,
  call,
  createAccount,
  joinSandbox,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
/** A business number registered to account `a` (the "own number" of operation 9). */
const OWN_NUMBER = '14155550177';
/** A valid number that is neither the sandbox nor registered to anyone. */
const STRANGER_NUMBER = '14155550199';
const USER_A = '254712300101';
const USER_B = '254712300102';

/** The example flow with its heading changed: a second valid Flow JSON that is easy to recognise. */
const RENAMED_HEADING = SIGN_UP_FLOW.replace('Create your account', 'Join us today');

/** The example with three distinct problems: an unknown version, a bad screen id, an unknown layout. */
function threeProblemFlow(): string {
  const flow = JSON.parse(SIGN_UP_FLOW);
  flow.version = '1.0';
  flow.screens[0].id = 'sign-up';
  flow.screens[1].layout.type = 'FancyLayout';
  return JSON.stringify(flow, null, 2);
}

/** A refused flow operation: the envelope, nothing else, `Request failed.` and then the reason. */
function assertRefused(r: ApiResponse, status: number, reason: RegExp): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
  assert.match(r.body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/);
  assert.equal(r.body.data, null);
  assert.equal(r.body.status, 'error');
  assert.equal(r.body.errors, null);
  assert.match(r.body.message, /^Request failed\. /);
  assert.match(r.body.message, reason);
}

describe('flow management at its edges', () => {
  let t: TestGateway;
  let a: TestAccount;
  let b: TestAccount;

  const validParts = (overrides: Partial<FlowFormParts> = {}): FlowFormParts => ({
    phoneNumber: SANDBOX,
    name: 'Sign up',
    categories: 'SIGN_UP',
    file: { content: SIGN_UP_FLOW, filename: 'sign-up.json' },
    ...overrides,
  });
  const create = (account: TestAccount, parts: FlowFormParts) =>
    flowRequest(t, 'POST', FLOWS, account.apiKey, parts);
  const update = (account: TestAccount, id: number, parts: FlowFormParts) =>
    flowRequest(t, 'PUT', `${FLOWS}/${id}`, account.apiKey, parts);
  const api = (account: TestAccount, method: string, route: string) =>
    call(t.url, method, route, { key: account.apiKey });
  const publish = (account: TestAccount, id: number) => api(account, 'POST', `${FLOWS}/${id}/publish`);
  const deprecate = (account: TestAccount, id: number) => api(account, 'POST', `${FLOWS}/${id}/deprecate`);
  const remove = (account: TestAccount, id: number) => api(account, 'DELETE', `${FLOWS}/${id}`);
  const preview = (account: TestAccount, id: number) => api(account, 'GET', `${FLOWS}/${id}/preview/url`);
  const list = (account: TestAccount, query = '') => api(account, 'GET', `${FLOWS}${query}`);
  let sends = 0;
  const send = (account: TestAccount, user: string, flowId: string | number, screen = 'SIGN_UP') =>
    call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
      key: account.apiKey,
      body: {
        messageId: `manage-send-${++sends}`,
        from: SANDBOX,
        to: `+${user}`,
        text: 'Please sign up',
        flowId: String(flowId),
        flowCta: 'Start',
        screen,
      },
    });
  /** The HTML of the flow's preview page, fetched through its signed link. */
  const previewPage = async (account: TestAccount, id: number) => {
    const link = await preview(account, id);
    assert.equal(link.status, 200, JSON.stringify(link.body));
    const page = await fetch(onGateway(t, link.body.data.preview.preview_url));
    return {
      status: page.status,
      html: await page.text(),
      url: onGateway(t, link.body.data.preview.preview_url),
    };
  };

  before(async () => {
    t = await startGateway();
    a = await createAccount(t, 'Flows A');
    b = await createAccount(t, 'Flows B');
    await addSimulatedNumber(t, a.accountId, OWN_NUMBER);
    await joinSandbox(t, a, USER_A);
    await joinSandbox(t, b, USER_B);
  });
  after(() => t?.close());

  describe('create', () => {
    test('each missing part is named: phoneNumber, name, categories, file', async () => {
      for (const [part, wire] of [
        ['phoneNumber', 'phoneNumber'],
        ['name', 'name'],
        ['categories', 'categories'],
        ['file', 'file'],
      ] as const) {
        const parts = validParts();
        delete parts[part];
        assertRefused(await create(a, parts), 400, new RegExp(`^Request failed\\. \`${wire}\` is required$`));
      }
    });

    test('categories: an unknown one is refused with the allowed list; OTHERS is read as OTHER', async () => {
      const unknown = await create(a, validParts({ categories: 'MARKETING' }));
      assertRefused(
        unknown,
        400,
        /`categories` holds "MARKETING", which is not a flow category; allowed: SIGN_UP, .*OTHER/,
      );
      const blank = await create(a, validParts({ categories: ' , ' }));
      assertRefused(blank, 400, /`categories` must name at least one of SIGN_UP/);

      const others = await create(a, validParts({ name: 'Others', categories: 'OTHERS' }));
      assert.equal(others.status, 200, JSON.stringify(others.body));
      assert.deepEqual(others.body.data.categories, ['OTHER']);
    });

    test('categories: a comma-separated list, any case and spacing, in order and without repeats', async () => {
      const r = await create(
        a,
        validParts({ name: 'Several', categories: 'sign_up, Survey,OTHERS,SIGN_UP' }),
      );
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.categories, ['SIGN_UP', 'SURVEY', 'OTHER']);
      assert.equal(r.body.data.status, 'DRAFT');
    });

    test('a file that is not JSON, an empty file, a non-UTF-8 file and a non-.json file are refused', async () => {
      const notJson = await create(a, validParts({ file: { content: 'screens: [ SIGN_UP ]' } }));
      assertRefused(
        notJson,
        400,
        /^Request failed\. `file` is not a valid Flow JSON \(1 problem\): \[1\] The file is not valid JSON: at line 1, column 1/,
      );
      const empty = await create(a, validParts({ file: { content: '' } }));
      assertRefused(empty, 400, /`file` is not a valid Flow JSON \(1 problem\): \[1\] The file is empty/);
      const latin1 = await create(a, validParts({ file: { content: new Uint8Array([0x7b, 0xe9, 0x7d]) } }));
      assertRefused(latin1, 400, /`file` must be a UTF-8 text file holding Flow JSON/);
      const text = await create(a, validParts({ file: { content: SIGN_UP_FLOW, filename: 'sign-up.txt' } }));
      assertRefused(text, 400, /`file` must be a \.json file \(got "sign-up\.txt"\)/);
    });

    test('a Flow JSON with three distinct problems lists all three, each with its path and rule', async () => {
      const r = await create(a, validParts({ file: { content: threeProblemFlow() } }));
      assertRefused(r, 400, /`file` is not a valid Flow JSON \(3 problems\): /);
      // Numbered, since a rule's own words may hold the `;` a plain list would be split on.
      const listed = r.body.message.split(/ ?\[\d\] /).slice(1);
      assert.equal(listed.length, 3, r.body.message);
      assert.match(listed[0], /^version: Flow JSON version "1\.0" is not accepted; use one of .*7\.1/);
      assert.match(
        listed[1],
        /^screens\[0\]\.id: Screen id "sign-up" may contain only letters, digits and underscores/,
      );
      assert.match(
        listed[2],
        /^screens\[1\]\.layout\.type: "layout\.type" is "FancyLayout"; the only layout is "SingleColumnLayout"\.$/,
      );
    });

    test('part sizes: a name of 200 characters passes and 201 does not; a name part over 1024 bytes is refused', async () => {
      const longest = await create(a, validParts({ name: 'n'.repeat(200) }));
      assert.equal(longest.status, 200, JSON.stringify(longest.body));
      assert.equal(longest.body.data.name, 'n'.repeat(200));
      assertRefused(
        await create(a, validParts({ name: 'n'.repeat(201) })),
        400,
        /`name` must be 1 to 200 characters/,
      );
      assertRefused(await create(a, validParts({ name: '   ' })), 400, /`name` must be 1 to 200 characters/);
      assertRefused(
        await create(a, validParts({ name: 'n'.repeat(1025) })),
        400,
        /`name` must be at most 1024 bytes/,
      );
    });

    test('part sizes: a Flow JSON file of exactly 1 MiB is accepted, one byte more is refused', async () => {
      const limit = 1024 * 1024;
      const padded = SIGN_UP_FLOW.trimEnd() + ' '.repeat(limit - Buffer.byteLength(SIGN_UP_FLOW.trimEnd()));
      assert.equal(Buffer.byteLength(padded), limit);
      const atLimit = await create(a, validParts({ name: 'Big', file: { content: padded } }));
      assert.equal(atLimit.status, 200, JSON.stringify(atLimit.body));
      const over = await create(a, validParts({ name: 'Too big', file: { content: `${padded} ` } }));
      assertRefused(over, 400, /`file` must be at most 1048576 bytes/);
    });

    test('the form itself: a repeated part, an unknown part, a text `file` and a JSON body are refused', async () => {
      const unknown = await create(a, validParts({ extra: { colour: 'blue' } }));
      assertRefused(
        unknown,
        400,
        /`colour` is not a known part; the parts are `phoneNumber`, `name`, `categories` and `file`/,
      );
      const form = new FormData();
      form.append('name', 'One');
      form.append('name', 'Two');
      const twice = await fetch(t.url + FLOWS, { method: 'POST', headers: { apiKey: a.apiKey }, body: form });
      assertRefused(
        { status: twice.status, headers: twice.headers, body: await twice.json() },
        400,
        /`name` was sent twice/,
      );
      const textFile = new FormData();
      textFile.append('file', SIGN_UP_FLOW);
      const asText = await fetch(t.url + FLOWS, {
        method: 'POST',
        headers: { apiKey: a.apiKey },
        body: textFile,
      });
      assertRefused(
        { status: asText.status, headers: asText.headers, body: await asText.json() },
        400,
        /`file` must be a file part \(a \.json file\), not text/,
      );
      const json = await call(t.url, 'POST', FLOWS, { key: a.apiKey, body: { name: 'x' } });
      assertRefused(json, 400, /the body must be multipart\/form-data/);
    });

    test('phoneNumber: the account’s own number is accepted; any other is 403 in the envelope', async () => {
      const own = await create(a, validParts({ name: 'On our number', phoneNumber: `+${OWN_NUMBER}` }));
      assert.equal(own.status, 200, JSON.stringify(own.body));
      assert.equal(own.body.data.status, 'DRAFT');

      const stranger = await create(a, validParts({ phoneNumber: `+${STRANGER_NUMBER}` }));
      assertRefused(
        stranger,
        403,
        new RegExp(
          `^Request failed\\. \`phoneNumber\` \\+${STRANGER_NUMBER} is neither the sandbox number \\(\\+${DEFAULT_SANDBOX_NUMBER}\\) nor a number registered to your account$`,
        ),
      );
      // Account a's number is a stranger to account b, answered exactly like any unknown number.
      const othersNumber = await create(b, validParts({ phoneNumber: `+${OWN_NUMBER}` }));
      assertRefused(othersNumber, 403, new RegExp(`\`phoneNumber\` \\+${OWN_NUMBER} is neither the sandbox`));

      assertRefused(
        await create(a, validParts({ phoneNumber: 'call me' })),
        400,
        /`phoneNumber` must be a valid phone number with country code/,
      );
    });
  });

  describe('update', () => {
    test('a DRAFT flow takes a new name, new categories and a new Flow JSON, each alone', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Before');
      const renamed = await update(a, flow.id, { name: 'After' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.data.name, 'After');
      assert.deepEqual(renamed.body.data.categories, ['SIGN_UP']);
      assert.equal(renamed.body.data.status, 'DRAFT');
      assert.equal(renamed.body.data.waFlowId, flow.waFlowId);

      const recategorised = await update(a, flow.id, { categories: 'LEAD_GENERATION,others' });
      assert.equal(recategorised.status, 200, JSON.stringify(recategorised.body));
      assert.deepEqual(recategorised.body.data.categories, ['LEAD_GENERATION', 'OTHER']);
      assert.equal(recategorised.body.data.name, 'After');

      assert.match((await previewPage(a, flow.id)).html, /Create your account/);
      const newJson = await update(a, flow.id, { file: { content: RENAMED_HEADING } });
      assert.equal(newJson.status, 200, JSON.stringify(newJson.body));
      const { html } = await previewPage(a, flow.id);
      assert.match(html, /Join us today/);
      assert.doesNotMatch(html, /Create your account/);

      // The same number may be named; it changes nothing. Another one is refused.
      const same = await update(a, flow.id, { phoneNumber: SANDBOX, name: 'Final' });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.equal(same.body.data.name, 'Final');
      assertRefused(
        await update(a, flow.id, { phoneNumber: `+${OWN_NUMBER}` }),
        400,
        /`phoneNumber` cannot change: flow \d+ belongs to \+14155550100/,
      );
    });

    test('an update with no part, or a bad name or category, is refused naming it', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Untouched');
      assertRefused(await update(a, flow.id, {}), 400, /send at least one of `name`, `categories` or `file`/);
      assertRefused(await update(a, flow.id, { name: '' }), 400, /`name` must be 1 to 200 characters/);
      assertRefused(
        await update(a, flow.id, { categories: 'NEWSLETTER' }),
        400,
        /`categories` holds "NEWSLETTER"/,
      );
      assertRefused(
        await update(a, 0, { name: 'x' }),
        400,
        /`id` must be a flow id \(a positive whole number\)/,
      );
      const unchanged = await list(a, '?per_page=100');
      assert.equal(unchanged.body.data.find((f: { id: number }) => f.id === flow.id).name, 'Untouched');
    });

    test('an invalid Flow JSON is refused with its problems, and the flow keeps the one it had', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Keeps its JSON');
      const r = await update(a, flow.id, { name: 'Changed too?', file: { content: threeProblemFlow() } });
      assertRefused(
        r,
        400,
        /`file` is not a valid Flow JSON \(3 problems\): \[1\] version: .* \[2\] screens\[0\]\.id: .* \[3\] screens\[1\]\.layout\.type: /,
      );
      const after = await previewPage(a, flow.id);
      assert.match(after.html, /Create your account/);
      const listed = await list(a, '?per_page=100');
      assert.equal(listed.body.data.find((f: { id: number }) => f.id === flow.id).name, 'Keeps its JSON');
      // Still valid, so still publishable.
      assert.equal((await publish(a, flow.id)).status, 200);
    });

    test('a PUBLISHED flow cannot change: 409, and nothing changes', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Published once');
      assert.equal((await publish(a, flow.id)).status, 200);
      for (const parts of [
        { name: 'New name' },
        { categories: 'SURVEY' },
        { file: { content: RENAMED_HEADING } },
      ]) {
        assertRefused(
          await update(a, flow.id, parts),
          409,
          /flow \d+ is PUBLISHED; only a DRAFT flow can change \(create a new flow instead\)/,
        );
      }
      assert.match((await previewPage(a, flow.id)).html, /Create your account/);
      const listed = await list(a, '?per_page=100');
      const row = listed.body.data.find((f: { id: number }) => f.id === flow.id);
      assert.equal(row.name, 'Published once');
      assert.deepEqual(row.categories, ['SIGN_UP']);
    });
  });

  describe('publish', () => {
    test('a flow that uses a data endpoint is not published: the network needs an endpoint the gateway does not set', async () => {
      const endpointFlow = JSON.stringify({
        version: '7.1',
        data_api_version: '3.0',
        routing_model: { START: [] },
        screens: [
          {
            id: 'START',
            title: 'Start',
            terminal: true,
            layout: {
              type: 'SingleColumnLayout',
              children: [
                { type: 'TextBody', text: 'Hello' },
                { type: 'Footer', label: 'Send', 'on-click-action': { name: 'data_exchange', payload: {} } },
              ],
            },
          },
        ],
      });
      const made = await create(a, {
        phoneNumber: SANDBOX,
        name: 'With an endpoint',
        categories: 'SIGN_UP',
        file: { content: endpointFlow, filename: 'endpoint.json' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const refused = await publish(a, made.body.data.id);
      assert.equal(refused.status, 409);
      assert.match(
        refused.body.message,
        /\(#139002\) Flow \d+ uses a data endpoint \(data_api_version\): set its endpoint_uri/,
      );
    });

    test('a PUBLISHED flow published again is 409 and keeps its updatedAt', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Twice');
      const first = await publish(a, flow.id);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assertRefused(await publish(a, flow.id), 409, /flow \d+ is already PUBLISHED$/);
      const listed = await list(a, '?per_page=100');
      assert.equal(
        listed.body.data.find((f: { id: number }) => f.id === flow.id).updatedAt,
        first.body.data.updatedAt,
      );
    });

    test('validation errors: create and update refuse an invalid Flow JSON, so only the network can report errors the gateway missed; such a flow is refused 400 with them', async () => {
      // The gateway checks every file before the network sees it, so no HTTP request can store an invalid
      // Flow JSON. What remains is Meta's own validator finding something the gateway's does not: its
      // `validation_errors` are stored with the flow, as here, and must block the publication.
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Network disagrees');
      const networkErrors = [
        {
          error: 'INVALID_PROPERTY_VALUE',
          error_type: 'FLOW_JSON_ERROR',
          message: 'Invalid value found for property "label".',
          pointers: [{ path: 'screens[0].layout.children[2].label' }],
        },
      ];
      await t.gateway.repos.flows.updateFlowOfAccountIfStatus(
        a.accountId,
        flow.id,
        'DRAFT',
        { validationErrors: JSON.stringify(networkErrors) },
        Date.now(),
      );
      assertRefused(
        await publish(a, flow.id),
        400,
        /flow \d+ cannot be published while its Flow JSON has validation errors; upload a corrected `file` first: \[1\] screens\[0\]\.layout\.children\[2\]\.label: Invalid value found for property "label"\./,
      );
      // A corrected upload clears them (the network answers none) and the flow publishes.
      assert.equal((await update(a, flow.id, { file: { content: SIGN_UP_FLOW } })).status, 200);
      const published = await publish(a, flow.id);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      assert.equal(published.body.data.status, 'PUBLISHED');
    });
  });

  describe('deprecate', () => {
    test('PUBLISHED → DEPRECATED; then it cannot be sent, published, changed, deleted or deprecated again', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Old offer');
      const published = await publish(a, flow.id);
      assert.equal((await send(a, USER_A, flow.id)).status, 200);

      const r = await deprecate(a, flow.id);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
      assert.equal(r.body.data.status, 'DEPRECATED');
      assert.ok(Date.parse(r.body.data.updatedAt) > Date.parse(published.body.data.updatedAt));

      // The message sent before no longer opens on the phone, and cannot be completed there.
      const opened = await call(t.url, 'POST', `/simulator/users/${USER_A}/messages`, {
        body: { to: SANDBOX, flowReply: { response: { first_name: 'Ana' } } },
      });
      assert.equal(opened.status, 400, JSON.stringify(opened.body));
      assert.match(opened.body.error.message, /was deprecated by the business and can no longer be opened/);

      for (const flowId of [String(flow.id), flow.waFlowId]) {
        const refused = await send(a, USER_A, flowId);
        assert.equal(refused.status, 409, JSON.stringify(refused.body));
        assert.equal(refused.body.status, 'error');
        assert.match(
          refused.body.message,
          /^flow \d+ is DEPRECATED and can no longer be sent; publish a new flow$/,
        );
      }
      assertRefused(
        await deprecate(a, flow.id),
        409,
        /flow \d+ is DEPRECATED; only a PUBLISHED flow can be deprecated$/,
      );
      assertRefused(
        await publish(a, flow.id),
        409,
        /flow \d+ is DEPRECATED; only a DRAFT flow can be published/,
      );
      assertRefused(
        await update(a, flow.id, { name: 'Revived' }),
        409,
        /flow \d+ is DEPRECATED; only a DRAFT flow can change/,
      );
      assertRefused(
        await remove(a, flow.id),
        409,
        /flow \d+ is DEPRECATED; only a DRAFT flow can be deleted$/,
      );
      // Still listed, as what it is.
      const listed = await list(a, '?per_page=100');
      assert.equal(listed.body.data.find((f: { id: number }) => f.id === flow.id).status, 'DEPRECATED');
    });

    test('a DRAFT flow cannot be deprecated: 409 pointing at delete', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Never published');
      assertRefused(
        await deprecate(a, flow.id),
        409,
        /flow \d+ is DRAFT; only a PUBLISHED flow can be deprecated \(a DRAFT flow can be deleted instead\)$/,
      );
    });
  });

  describe('delete', () => {
    test('a DRAFT flow is deleted; then every route, the preview page and a send answer 404', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Short-lived');
      const page = await previewPage(a, flow.id);
      assert.equal(page.status, 200);

      const r = await remove(a, flow.id);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data, { id: flow.id, deleted: true });

      const gone = new RegExp(`^Request failed\\. no flow ${flow.id} in this account$`);
      assertRefused(await preview(a, flow.id), 404, gone);
      assertRefused(await publish(a, flow.id), 404, gone);
      assertRefused(await update(a, flow.id, { name: 'Back' }), 404, gone);
      assertRefused(await deprecate(a, flow.id), 404, gone);
      assertRefused(await remove(a, flow.id), 404, gone);
      const oldLink = await fetch(page.url);
      assert.equal(oldLink.status, 404);
      assert.match(await oldLink.text(), /not valid/);
      for (const flowId of [String(flow.id), flow.waFlowId]) {
        const sent = await send(a, USER_A, flowId);
        assert.equal(sent.status, 404, JSON.stringify(sent.body));
        assert.match(sent.body.message, /^no flow "\d+" in this account/);
      }
      const listed = await list(a, '?per_page=100');
      assert.equal(
        listed.body.data.some((f: { id: number }) => f.id === flow.id),
        false,
      );
    });

    test('a PUBLISHED flow is refused 409 and stays sendable', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Live');
      assert.equal((await publish(a, flow.id)).status, 200);
      assertRefused(
        await remove(a, flow.id),
        409,
        /flow \d+ is PUBLISHED; only a DRAFT flow can be deleted \(deprecate a published flow instead\)$/,
      );
      assert.equal((await send(a, USER_A, flow.id)).status, 200);
    });
  });

  describe('list', () => {
    const TOTAL = 23;
    let c: TestAccount;
    const names = (r: ApiResponse) => r.body.data.map((f: { name: string }) => f.name);
    const flowName = (n: number) => `Flow ${String(n).padStart(2, '0')}`;
    /** Names from flow `from` down to flow `to`, the order of the list (newest first). */
    const newestFirst = (from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, i) => flowName(from - i));

    before(async () => {
      c = await createAccount(t, 'Flows C');
      for (let n = 1; n <= TOTAL; n++) await createSignUpFlow(t, c.apiKey, SANDBOX, flowName(n));
    });

    test('an account with no flows gets an empty first page', async () => {
      const empty = await createAccount(t, 'No flows');
      const r = await list(empty);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { data: [], totalPages: 0, totalItemsInPage: 0, totalElements: 0 });
    });

    test('defaults page=1, per_page=20, newest first; the body is exactly the page, no envelope', async () => {
      const r = await list(c);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body), ['data', 'totalPages', 'totalItemsInPage', 'totalElements']);
      assert.deepEqual(names(r), newestFirst(23, 4));
      assert.equal(r.body.totalPages, 2);
      assert.equal(r.body.totalItemsInPage, 20);
      assert.equal(r.body.totalElements, TOTAL);
      assert.deepEqual(Object.keys(r.body.data[0]), [
        'id',
        'waFlowId',
        'name',
        'status',
        'categories',
        'createdAt',
        'updatedAt',
      ]);
      const explicit = await list(c, '?page=1&per_page=20');
      assert.deepEqual(explicit.body, r.body);
    });

    test('pages are 1-based: the last page holds the rest, a page past the end is empty', async () => {
      const last = await list(c, '?page=2');
      assert.deepEqual(names(last), newestFirst(3, 1));
      assert.deepEqual(
        {
          totalPages: last.body.totalPages,
          totalItemsInPage: last.body.totalItemsInPage,
          totalElements: last.body.totalElements,
        },
        { totalPages: 2, totalItemsInPage: 3, totalElements: TOTAL },
      );
      const past = await list(c, '?page=3');
      assert.deepEqual(past.body, { data: [], totalPages: 2, totalItemsInPage: 0, totalElements: TOTAL });
      const oneEach = await list(c, `?per_page=1&page=${TOTAL}`);
      assert.deepEqual(names(oneEach), [flowName(1)]);
      assert.equal(oneEach.body.totalPages, TOTAL);
      const farPast = await list(c, '?page=999999999&per_page=100');
      assert.deepEqual(farPast.body, { data: [], totalPages: 1, totalItemsInPage: 0, totalElements: TOTAL });
    });

    test('per_page=100 is accepted and returns everything', async () => {
      const r = await list(c, '?per_page=100');
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(names(r), newestFirst(23, 1));
      assert.equal(r.body.totalPages, 1);
      assert.equal(r.body.totalItemsInPage, TOTAL);
    });

    test('per_page 0, 101, non-numeric and page 0 are refused with a 400 envelope naming the field', async () => {
      for (const value of ['0', '101', 'ten', '-1', '1.5', '']) {
        assertRefused(
          await list(c, `?per_page=${value}`),
          400,
          /`per_page` must be a whole number from 1 to 100$/,
        );
      }
      for (const value of ['0', 'first', '-2']) {
        assertRefused(
          await list(c, `?page=${value}`),
          400,
          /`page` must be a whole number from 1 \(pages are 1-based\)$/,
        );
      }
    });
  });

  describe('isolation', () => {
    test('without a valid apiKey every flow route is the documented 401', async () => {
      const flow = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Keyed');
      const routes: [string, string][] = [
        ['GET', FLOWS],
        ['POST', FLOWS],
        ['PUT', `${FLOWS}/${flow.id}`],
        ['GET', `${FLOWS}/${flow.id}/preview/url`],
        ['POST', `${FLOWS}/${flow.id}/publish`],
        ['POST', `${FLOWS}/${flow.id}/deprecate`],
        ['DELETE', `${FLOWS}/${flow.id}`],
      ];
      for (const [method, route] of routes) {
        for (const key of [undefined, 'sb_live_not-a-key']) {
          const r = await call(t.url, method, route, key === undefined ? {} : { key });
          assert.equal(r.status, 401, `${method} ${route}`);
          assert.deepEqual(
            { ...r.body, timestamp: 'x' },
            {
              timestamp: 'x',
              data: null,
              status: 'success',
              message: 'Invalid credentials',
              errors: null,
            },
          );
        }
      }
      assert.equal(
        (await publish(a, flow.id)).body.data.status,
        'PUBLISHED',
        'nothing was done without a key',
      );
    });

    test('a second account gets 404 on every route with the first account’s flow id, lists none and cannot send it', async () => {
      const draft = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Private draft');
      const live = await createSignUpFlow(t, a.apiKey, SANDBOX, 'Private live');
      assert.equal((await publish(a, live.id)).status, 200);
      const own = await createSignUpFlow(t, b.apiKey, SANDBOX, 'B’s own');

      for (const flow of [draft, live]) {
        const notHere = new RegExp(`^Request failed\\. no flow ${flow.id} in this account$`);
        assertRefused(await preview(b, flow.id), 404, notHere);
        assertRefused(await publish(b, flow.id), 404, notHere);
        assertRefused(await update(b, flow.id, { name: 'Stolen' }), 404, notHere);
        assertRefused(await deprecate(b, flow.id), 404, notHere);
        assertRefused(await remove(b, flow.id), 404, notHere);
        for (const flowId of [String(flow.id), flow.waFlowId]) {
          const sent = await send(b, USER_B, flowId);
          assert.equal(sent.status, 404, JSON.stringify(sent.body));
          assert.match(sent.body.message, new RegExp(`^no flow "${flowId}" in this account`));
        }
      }
      const theirs = await list(b, '?per_page=100');
      assert.equal(theirs.status, 200);
      const ids = new Set(theirs.body.data.map((f: { id: number }) => f.id));
      assert.deepEqual([...ids], [own.id]);
      const mine = await list(a, '?per_page=100');
      assert.ok(
        mine.body.data.every((f: { id: number }) => !ids.has(f.id)),
        'no flow is in both lists',
      );

      // Nothing b tried changed a's flows.
      const draftNow = mine.body.data.find((f: { id: number }) => f.id === draft.id);
      const liveNow = mine.body.data.find((f: { id: number }) => f.id === live.id);
      assert.deepEqual([draftNow.name, draftNow.status], ['Private draft', 'DRAFT']);
      assert.deepEqual([liveNow.name, liveNow.status], ['Private live', 'PUBLISHED']);
    });
  });
});
